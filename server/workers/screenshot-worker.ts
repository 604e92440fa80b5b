import type { Job } from 'bullmq';
import type { WorkerDeps } from './worker-deps.js';
import { SCREENSHOT_ATTEMPTS, type ScreenshotJobData, type ScreenshotOutcome } from '../jobs/screenshot-jobs.js';
import { renderOwnerFor, runAsRenderOwner } from '../render/browser-pool.js';
import { captureScreenshot } from '../render/screenshot.js';
import { runJobOnce } from './job-run.js';

/** One queued screenshot, run once (`job-run.ts`): the image, or why there is none. */
export function screenshotWork(deps: WorkerDeps) {
  return (job: Job<ScreenshotJobData>): Promise<{ job_id: string }> => {
    const id = job.id ?? '';
    const d = job.data;
    return runJobOnce<ScreenshotOutcome>(job, deps, {
      kind: 'screenshot',
      attempts: SCREENSHOT_ATTEMPTS,
      stored: () => deps.jobs.outcome(id),
      store: (outcome) => deps.jobs.storeOutcome(id, outcome),
      run: () => render(deps, id, job),
      failed: (reply) => ({ job_id: id, url: d.url, status: 'failed', error: reply.body.error, code: reply.code }),
      failure: (outcome) => ('error' in outcome ? outcome.error : null),
      webhook: d.webhook_url ? { job_id: id, url: d.webhook_url, owner: d.owner } : undefined,
    });
  };
}

async function render(deps: WorkerDeps, id: string, job: Job<ScreenshotJobData>): Promise<ScreenshotOutcome> {
  const d = job.data;
  const key = await deps.keys.findByHash(d.owner);
  const shot = await runAsRenderOwner(renderOwnerFor(deps.config.RENDER_SHARE, key, 'queue'), () =>
    captureScreenshot(
      { url: d.url, format: d.format, width: d.width, height: d.height, fullPage: d.full_page, quality: 80, darkMode: false, delay: 0, blockAds: false },
      { pool: deps.browser, policy: deps.http.policy, adBlocker: deps.adBlocker, renderTimeoutMs: deps.config.RENDER_TIMEOUT_MS },
    ),
  );
  return { job_id: id, url: d.url, image: shot.body.toString('base64'), format: d.format, width: d.width, height: d.height };
}
