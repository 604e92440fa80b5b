import crypto from 'node:crypto';
import type { Job } from 'bullmq';
import type { Redis, RedisOptions } from 'ioredis';
import { buildReport, type CompareInput, type CompareReport, type HealthPoint } from '../compare/compare-report.js';
import { runComparison, type CompareProgress } from '../compare/compare-run.js';
import { diffRun } from '../compare/diff-run.js';
import { trendChart } from '../compare/trend-chart.js';
import { renderOwnerFor } from '../render/browser-pool.js';
import { screenshotDeps } from '../render/screenshot.js';
import { runJobOnce } from '../workers/job-run.js';
import type { WorkerDeps } from '../workers/worker-deps.js';
import { JobQueue, type JobFailure, type JobKind, type OwnedJobData } from './job-queue.js';
import type { ReplicaWait } from '../store/replica-wait.js';
import { scopeTargetHeaders } from '../net/target-headers.js';
import { secretSealer } from './sealed-secrets.js';

/** A queued comparison: what to compare, for whom. */
export interface CompareJobData extends OwnedJobData {
  input: CompareInput;
  /** Where the trend picture will be, known from the start so a caller can link it at once. */
  trend_id: string;
  /** `target_headers` for the preview's origin, sealed (`sealed-secrets.ts`): never in Redis in the clear. */
  sealed_headers?: string;
}

/** What a finished comparison leaves (also its webhook body). */
export type CompareOutcome = { job_id: string; status: 'completed'; report: CompareReport } | JobFailure;

/** A queued comparison as BullMQ holds it (routers name it without importing BullMQ). */
export type CompareJob = Job<CompareJobData>;

export const compareKind: JobKind = {
  name: 'compare',
  queue: 'compare',
  jobName: 'compare',
  attempts: 2,
  outcomeKey: (prefix, jobId) => `${prefix}compare:outcome:${jobId}`,
  noun: 'comparison',
};

/** Health scores kept per site and key. */
export const HISTORY_LENGTH = 20;
const HISTORY_TTL_SECONDS = 90 * 24 * 3600;
/** The trend picture is linked from PR comments: kept a week, like diff images. */
export const TREND_KEPT_SECONDS = 7 * 24 * 3600;

/**
 * The comparison queue (POST /api/compare) and its read model: outcomes, progress, the short
 * health history per site and key, and the trend pictures behind unguessable URLs.
 */
export class CompareJobs extends JobQueue<CompareJobData, CompareOutcome> {
  constructor(connection: RedisOptions, redis: Redis, prefix: string, replicated?: ReplicaWait) {
    super(compareKind, connection, redis, prefix, replicated);
  }

  /** The progress the worker last reported; null before it started. */
  progress(job: CompareJob): CompareProgress | null {
    const p = job.progress;
    return typeof p === 'object' && p !== null && 'total' in p ? (p as CompareProgress) : null;
  }

  /**
   * Adds a run's health scores to the site's history for this key and answers the history,
   * oldest first. A re-run of the same job (its worker died) adds nothing.
   */
  async record(owner: string, site: string, jobId: string, point: HealthPoint): Promise<HealthPoint[]> {
    const key = this.k('history', owner, crypto.createHash('sha256').update(site).digest('hex').slice(0, 32));
    const latest = await this.redis.lindex(key, 0);
    if (!latest || (JSON.parse(latest) as { job_id?: string }).job_id !== jobId) {
      await this.redis.multi().lpush(key, JSON.stringify({ ...point, job_id: jobId })).ltrim(key, 0, HISTORY_LENGTH - 1).expire(key, HISTORY_TTL_SECONDS).exec();
    }
    const raw = await this.redis.lrange(key, 0, HISTORY_LENGTH - 1);
    return raw.reverse().map((r) => {
      const { at, baseline, preview } = JSON.parse(r) as HealthPoint;
      return { at, baseline, preview };
    });
  }

  async saveTrend(id: string, png: Buffer): Promise<void> {
    await this.redis.set(this.k('trend', id), png, 'EX', TREND_KEPT_SECONDS);
  }

  loadTrend(id: string): Promise<Buffer | null> {
    return this.redis.getBuffer(this.k('trend', id));
  }

  private k = (...parts: string[]) => `${this.prefix}compare:${parts.join(':')}`;
}

/** The worker's side: one queued comparison, run once (`runJobOnce`): the checks on both sides and their report. */
export function compareWork(deps: WorkerDeps) {
  return (job: CompareJob): Promise<{ job_id: string }> =>
    runJobOnce(job, deps.compareJobs, deps, {
      run: () => compare(deps, job),
      failed: (failure) => failure,
    });
}

async function compare(deps: WorkerDeps, job: CompareJob): Promise<CompareOutcome> {
  const id = job.id ?? '';
  const { input } = job.data;
  const c = deps.config;
  const started = new Date();
  // The renders count against the owner's share of the browser, as a queued screenshot's do.
  const owner = renderOwnerFor(c.RENDER_SHARE, await deps.keys.findByHash(job.data.owner), 'queue');
  const sealed = job.data.sealed_headers;
  const targetHeaders = sealed ? scopeTargetHeaders(input.preview_url, secretSealer(c.JOB_SECRETS_KEY).open(job.data.owner, sealed)) : undefined;
  const run = await runComparison(
    input,
    {
      http: deps.http,
      links: deps.links(owner, { targetHeaders }),
      targetHeaders,
      shots: screenshotDeps(deps, owner),
      detector: deps.techDetector,
      tlsCa: deps.tlsCa,
      diffs: deps.diffs,
      diffImageUrl: (diff, image) => `${c.baseUrl}/api/screenshot/diff/${diff}/${image}`,
      timeoutMs: c.FETCH_TIMEOUT_MS,
      maxBytes: c.ANALYSIS_MAX_BYTES,
    },
    (p) => job.updateProgress({ ...p }),
  );
  const report = buildReport(input, diffRun(input, run), started);
  const runs = await deps.compareJobs.record(job.data.owner, input.baseline_url, id, { at: report.completed_at, baseline: report.health.baseline, preview: report.health.preview });
  return { job_id: id, status: 'completed', report: { ...report, trend: { image_url: await trendImage(deps, job.data.trend_id, runs), runs } } };
}

/** The trend picture's URL; a chart that cannot be drawn leaves the report without one rather than failing it. */
async function trendImage(deps: WorkerDeps, trendId: string, runs: CompareReport['trend']['runs']): Promise<string | null> {
  try {
    const png = await deps.charts.render(trendChart(runs));
    await deps.compareJobs.saveTrend(trendId, png);
    return `${deps.config.baseUrl}/api/compare/trend/${trendId}/image`;
  } catch (err) {
    deps.log.warn({ err }, 'trend chart not drawn');
    return null;
  }
}
