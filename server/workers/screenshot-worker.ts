import { UnrecoverableError, type Job } from 'bullmq';
import type { WorkerDeps } from './worker-deps.js';
import { httpReply } from '../errors/index.js';
import { SCREENSHOT_ATTEMPTS, type ScreenshotJobData, type ScreenshotOutcome } from '../jobs/screenshot-jobs.js';
import { renderOwnerFor, runAsRenderOwner } from '../render/browser-pool.js';
import { captureScreenshot } from '../render/screenshot.js';
import { diedTooOften } from './stalls.js';

/**
 * One queued screenshot: render (unless a run that died already stored the outcome), store
 * the outcome, schedule its webhook, and only then complete. Every step is idempotent, so a
 * worker killed at any point leaves a job the next worker finishes without a lost or doubled
 * webhook.
 */
export function screenshotWork(deps: WorkerDeps) {
  return async (job: Job<ScreenshotJobData>): Promise<{ job_id: string }> => {
    const id = job.id ?? '';
    const d = job.data;
    const outcome = (await deps.jobs.outcome(id)) ?? (await render(deps, id, job));
    if (d.webhook_url) await deps.jobs.scheduleWebhook({ job_id: id, url: d.webhook_url, owner: d.owner });
    if ('error' in outcome) throw new UnrecoverableError(outcome.error);
    return { job_id: id };
  };
}

async function render(deps: WorkerDeps, id: string, job: Job<ScreenshotJobData>): Promise<ScreenshotOutcome> {
  const d = job.data;
  const key = await deps.keys.findByHash(d.owner);
  let outcome: ScreenshotOutcome;
  try {
    const died = diedTooOften(job);
    if (died) throw died;
    const shot = await runAsRenderOwner(renderOwnerFor(deps.config.RENDER_SHARE, key, 'queue'), () =>
      captureScreenshot(
        { url: d.url, format: d.format, width: d.width, height: d.height, fullPage: d.full_page, quality: 80, darkMode: false, delay: 0, blockAds: false },
        { pool: deps.browser, policy: deps.http.policy, adBlocker: deps.adBlocker, renderTimeoutMs: deps.config.RENDER_TIMEOUT_MS },
      ),
    );
    outcome = { job_id: id, url: d.url, image: shot.body.toString('base64'), format: d.format, width: d.width, height: d.height };
  } catch (err) {
    const reply = httpReply(err);
    if (reply.internal) deps.log.error({ err, job: id }, 'screenshot job failed');
    // The caller's mistake (bad input, refused target) will not get better; the rest is retried.
    const hopeless = (reply.status < 500 && reply.status !== 429) || diedTooOften(job) !== null;
    if (!hopeless && job.attemptsMade + 1 < (job.opts.attempts ?? SCREENSHOT_ATTEMPTS)) throw err;
    outcome = { job_id: id, url: d.url, status: 'failed', error: reply.body.error, code: reply.code };
  }
  await deps.jobs.storeOutcome(id, outcome);
  // A run that stored first wins; a webhook never carries one outcome while the API shows another.
  return (await deps.jobs.outcome(id)) ?? outcome;
}
