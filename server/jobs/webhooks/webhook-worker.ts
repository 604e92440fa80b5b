import { UnrecoverableError, type Job } from 'bullmq';
import type { Config } from '../../config.js';
import type { KeyStore } from '../../keys/key-store.js';
import type { SafeHttp } from '../../net/safe-http.js';
import type { JobKind } from '../job-queue.js';
import { deliverWebhook } from './webhook-delivery.js';
import type { Webhooks, WebhookJobData } from './webhooks.js';

/** Longest wait for a receiver's answer. */
const DELIVERY_TIMEOUT_MS = 10_000;

export interface WebhookWorkDeps {
  config: Config;
  http: SafeHttp;
  keys: KeyStore;
  webhooks: Webhooks;
  /** The stored outcome of a job of any kind; null once expired. */
  outcomeOf(kind: JobKind['name'], jobId: string): Promise<unknown>;
}

/**
 * One delivery attempt of a job's outcome, signed per Standard Webhooks with the owning
 * key's secret. The attempt is recorded whatever happens; a failed one is thrown back to
 * BullMQ, which retries with exponential backoff until the attempts are used up. The
 * `webhook-id` is the same on every attempt, so receivers drop duplicates.
 */
export function webhookWork(deps: WebhookWorkDeps) {
  return async (job: Job<WebhookJobData>): Promise<void> => {
    const { job_id, url, owner } = job.data;
    const attempt = job.attemptsMade + 1;
    const outcome = await deps.outcomeOf(job.data.kind ?? 'screenshot', job_id);
    const key = await deps.keys.findByHash(owner);
    const result =
      outcome && key
        ? await deliverWebhook(
            { url, messageId: `msg_${job_id}`, secret: key.webhook_secret, body: JSON.stringify(outcome), timeoutMs: DELIVERY_TIMEOUT_MS },
            deps,
          )
        : { status: null, error: outcome ? 'the key that owns the job was deleted' : 'the job outcome expired' };
    // Standard Webhooks: 410 Gone means the receiver wants no more; the same for a missing outcome or key.
    const final = !outcome || !key || result.status === 410 || attempt >= (job.opts.attempts ?? 1);
    // One clock reading: the attempt's time and the next attempt's are `backoff` apart exactly.
    const now = Date.now();
    const retryAt = result.error && !final ? new Date(now + deps.config.WEBHOOK_BACKOFF_MS * 2 ** (attempt - 1)) : null;
    await deps.webhooks.log.attempt(job_id, { attempt, at: new Date(now).toISOString(), ...result }, retryAt);
    if (!result.error) return;
    if (final) throw new UnrecoverableError(result.error);
    throw new Error(result.error);
  };
}
