import { UnrecoverableError, Worker, type ConnectionOptions } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import type { AppDeps } from '../api/deps.js';
import { SCREENSHOT_QUEUE, WEBHOOK_QUEUE, type ScreenshotJobData, type ScreenshotJobResult } from '../jobs/screenshot-jobs.js';
import { deliverWebhook } from '../jobs/webhook-delivery.js';
import { HttpError } from '../api/errors.js';
import { captureScreenshot } from '../render/screenshot.js';

/**
 * The background workers: screenshot jobs and webhook deliveries. Thin adapters over the
 * domain functions; BullMQ re-runs a job whose worker died (stalled-job recovery).
 */
export function createWorkers(deps: AppDeps, connection: RedisOptions) {
  const opts = {
    connection: { ...connection, maxRetriesPerRequest: null } as ConnectionOptions,
    prefix: `${deps.config.REDIS_PREFIX}bull`,
    // Recover a dead worker's job in seconds, not BullMQ's default minute.
    lockDuration: deps.config.JOB_LOCK_MS,
    stalledInterval: deps.config.JOB_STALLED_INTERVAL_MS,
  };

  const screenshots = new Worker<ScreenshotJobData, ScreenshotJobResult>(
    SCREENSHOT_QUEUE,
    async (job) => {
      const d = job.data;
      try {
        const shot = await captureScreenshot(
          { url: d.url, format: d.format, width: d.width, height: d.height, fullPage: d.full_page, quality: 80, darkMode: false, delay: 0, blockAds: false },
          { pool: deps.browser, policy: deps.http.policy, adBlocker: deps.adBlocker, renderTimeoutMs: deps.config.RENDER_TIMEOUT_MS },
        );
        return { job_id: job.id!, url: d.url, image: shot.body.toString('base64'), format: d.format, width: d.width, height: d.height };
      } catch (err) {
        // A refused or invalid target will not get better on retry.
        if (err instanceof HttpError && err.status === 400) throw new UnrecoverableError(err.message);
        if ((err as { code?: string }).code === 'ERR_BLOCKED_TARGET') throw new UnrecoverableError((err as Error).message);
        throw err;
      }
    },
    { ...opts, concurrency: deps.config.BROWSER_CONCURRENCY },
  );
  screenshots.on('completed', (job) => {
    if (job.data.webhook_url) void deps.jobs.scheduleWebhook(job.id!).catch((err) => deps.log.error({ err }, 'cannot schedule webhook'));
  });

  const webhooks = new Worker<{ job_id: string }>(
    WEBHOOK_QUEUE,
    async (job) => {
      const shot = await deps.jobs.screenshots.getJob(job.data.job_id);
      if (!shot?.returnvalue || !shot.data.webhook_url) throw new UnrecoverableError('the screenshot job is gone');
      const key = await deps.keys.findByHash(shot.data.owner);
      if (!key) throw new UnrecoverableError('the key that owns the job is gone');
      const outcome = await deliverWebhook(
        { url: shot.data.webhook_url, messageId: `msg_${job.data.job_id}`, secret: key.webhook_secret, body: JSON.stringify(shot.returnvalue), timeoutMs: 10_000 },
        deps,
      );
      await deps.jobs.recordWebhookAttempt(job.data.job_id, { attempt: job.attemptsMade + 1, at: new Date().toISOString(), ...outcome });
      if (outcome.error) throw new Error(outcome.error);
    },
    { ...opts, concurrency: 8 },
  );

  for (const w of [screenshots, webhooks]) w.on('error', (err) => deps.log.warn({ err: err.message }, 'worker error'));
  return {
    async close() {
      await Promise.all([screenshots.close(), webhooks.close()]);
    },
  };
}
