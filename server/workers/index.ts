import { Worker, type ConnectionOptions } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import type { WorkerDeps } from './worker-deps.js';
import { compareKind, compareWork } from '../jobs/compare-job.js';
import { screenshotKind, screenshotWork } from '../jobs/screenshot-job.js';
import { webhookWork } from '../jobs/webhooks/webhook-worker.js';
import { WEBHOOK_QUEUE } from '../jobs/webhooks/webhooks.js';
import { handingBack } from './hand-back.js';
import { MAX_STALLS } from './stalls.js';
import { timeBound } from '../time-bounds.js';

/**
 * A delivery cannot kill its worker (it is one HTTP request), so a stall is always a worker
 * that died for other reasons: it is never given up for that. Deliveries are idempotent and
 * carry one `webhook-id`, so a rerun is at worst a duplicate receivers drop.
 */
const WEBHOOK_MAX_STALLS = 1_000;

export interface Workers {
  /**
   * Stops taking jobs, lets running ones finish for up to `drainMs`, then hands the rest back
   * to the queue (another worker takes them at once) and closes.
   */
  close(drainMs?: number): Promise<void>;
}

/**
 * The background workers: screenshot jobs, comparisons and webhook deliveries. Thin adapters over the
 * domain functions; BullMQ re-runs a job whose worker died (stalled-job recovery).
 */
export function createWorkers(deps: WorkerDeps, connection: RedisOptions): Workers {
  const opts = {
    connection: { ...connection, maxRetriesPerRequest: null } as ConnectionOptions,
    prefix: `${deps.config.REDIS_PREFIX}bull`,
    // Recover a dead worker's job in seconds, not BullMQ's default minute.
    lockDuration: deps.config.JOB_LOCK_MS,
    stalledInterval: deps.config.JOB_STALLED_INTERVAL_MS,
    // One more than ours, so a job that keeps killing its worker fails through our code (diedTooOften).
    maxStalledCount: MAX_STALLS + 1,
  };
  // Each kind's outcomes, for the webhooks that deliver them.
  const kinds = { screenshot: deps.screenshotJobs, compare: deps.compareJobs };
  const workers = [
    new Worker(screenshotKind.queue, handingBack(screenshotWork(deps)), { ...opts, concurrency: deps.config.BROWSER_CONCURRENCY }),
    // A comparison runs many checks (with their own concurrency); two at once per process is plenty.
    new Worker(compareKind.queue, handingBack(compareWork(deps)), { ...opts, concurrency: 2 }),
    new Worker(WEBHOOK_QUEUE, handingBack(webhookWork({ ...deps, outcomeOf: (kind, id) => kinds[kind].outcome(id) })), { ...opts, maxStalledCount: WEBHOOK_MAX_STALLS, concurrency: 8 }),
  ];
  let lastWarning = 0;
  for (const w of workers) {
    w.on('error', (err) => {
      // While Redis is away every poll fails; one line every few seconds says so.
      if (Date.now() - lastWarning < 5_000) return;
      lastWarning = Date.now();
      deps.log.warn({ err: err.message }, 'worker error');
    });
  }
  return {
    async close(drainMs = 10_000) {
      const closing = Promise.all(workers.map((w) => w.close()));
      const drained = (await timeBound(closing.then(() => true), drainMs)) ?? false;
      if (drained) return;
      for (const w of workers) w.cancelAllJobs('the worker is shutting down');
      await closing;
    },
  };
}

