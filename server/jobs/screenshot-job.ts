import type { Job } from 'bullmq';
import type { Redis, RedisOptions } from 'ioredis';
import { renderOwnerFor } from '../render/browser-pool.js';
import { captureScreenshot, screenshotDefaults, screenshotDeps } from '../render/screenshot.js';
import { runJobOnce } from '../workers/job-run.js';
import type { WorkerDeps } from '../workers/worker-deps.js';
import { JobQueue, type JobFailure, type JobKind, type OwnedJobData } from './job-queue.js';
import type { ReplicaWait } from '../store/replica-wait.js';
import { scopeTargetHeaders } from '../net/target-headers.js';
import { secretSealer } from './sealed-secrets.js';

/** A queued screenshot: what to capture, for whom. */
export interface ScreenshotJobData extends OwnedJobData {
  url: string;
  format: 'webp' | 'png' | 'jpeg';
  width: number;
  height: number;
  full_page: boolean;
  /** `target_headers`, sealed (`sealed-secrets.ts`): never in Redis in the clear. */
  sealed_headers?: string;
}

/** The job result, also the webhook body (contract: same as GET /api/screenshot/result/{id}). */
export interface ScreenshotJobResult {
  job_id: string;
  url: string;
  image: string;
  format: string;
  width: number;
  height: number;
}

/** What a finished job leaves (also its webhook body): its result, or its failure. */
export type ScreenshotOutcome = ScreenshotJobResult | (JobFailure & { url: string });

export const screenshotKind: JobKind = {
  name: 'screenshot',
  queue: 'screenshot',
  jobName: 'capture',
  attempts: 3,
  outcomeKey: (prefix, jobId) => `${prefix}screenshot-outcome:${jobId}`,
  noun: 'job',
};

/** The asynchronous screenshot queue (POST /api/screenshot/queue) and its outcomes. */
export class ScreenshotJobs extends JobQueue<ScreenshotJobData, ScreenshotOutcome> {
  constructor(connection: RedisOptions, redis: Redis, prefix: string, replicated?: ReplicaWait) {
    super(screenshotKind, connection, redis, prefix, replicated);
  }
}

/** The worker's side: one queued screenshot, run once (`runJobOnce`): the image, or why there is none. */
export function screenshotWork(deps: WorkerDeps) {
  return (job: Job<ScreenshotJobData>): Promise<{ job_id: string }> =>
    runJobOnce(job, deps.screenshotJobs, deps, {
      run: () => render(deps, job),
      failed: (failure) => ({ ...failure, url: job.data.url }),
    });
}

async function render(deps: WorkerDeps, job: Job<ScreenshotJobData>): Promise<ScreenshotOutcome> {
  const d = job.data;
  // The render counts against the owner's share of the browser, as its synchronous screenshots do.
  const owner = renderOwnerFor(deps.config.RENDER_SHARE, await deps.keys.findByHash(d.owner), 'queue');
  const shot = await captureScreenshot(
    {
      url: d.url,
      format: d.format,
      width: d.width,
      height: d.height,
      fullPage: d.full_page,
      quality: screenshotDefaults.quality,
      darkMode: false,
      delay: 0,
      blockAds: false,
      targetHeaders: d.sealed_headers ? scopeTargetHeaders(d.url, secretSealer(deps.config.JOB_SECRETS_KEY).open(d.owner, d.sealed_headers)) : undefined,
    },
    screenshotDeps(deps, owner),
  );
  return { job_id: job.id ?? '', url: d.url, image: shot.body.toString('base64'), format: d.format, width: d.width, height: d.height };
}
