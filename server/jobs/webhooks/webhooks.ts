import type { Redis, RedisOptions } from 'ioredis';
import { RESULT_TTL_SECONDS, type JobKind } from '../job-queue.js';
import { ProducerQueue } from '../producer-queue.js';
import { WebhookLog, type WebhookStatus } from './webhook-log.js';

export const WEBHOOK_QUEUE = 'webhook';

/** A webhook delivery job: which job's outcome goes where, for whom. */
export interface WebhookJobData {
  job_id: string;
  url: string;
  /** Hash of the owning key, whose secret signs the delivery. */
  owner: string;
  /** The kind of the job whose outcome is delivered. @default 'screenshot' (jobs queued before kinds were named) */
  kind?: JobKind['name'];
}

/** The `webhook` field of a job's status: the receiver and its delivery's record. */
export type WebhookField = ({ url: string } & WebhookStatus) | null;

/**
 * Webhook deliveries of every job kind: each is its own BullMQ job, scheduled once the job's
 * outcome is stored, and recorded attempt by attempt (`webhook-log.ts`). The delivery reads
 * the outcome when it runs (`webhook-worker.ts`), so any kind's outcome goes the same way.
 */
export class Webhooks {
  private readonly queue: ProducerQueue<WebhookJobData>;
  readonly log: WebhookLog;

  constructor(
    /** Producer options: no offline queue, so a request fails fast while Redis is away. */
    connection: RedisOptions,
    redis: Redis,
    prefix: string,
    private readonly retry: { attempts: number; backoffMs: number },
  ) {
    this.queue = new ProducerQueue(WEBHOOK_QUEUE, connection, prefix);
    this.log = new WebhookLog(redis, prefix, RESULT_TTL_SECONDS);
  }

  /**
   * Schedules the delivery of a job's outcome. Its id is fixed per job, so a re-run of the
   * job (or of this step) adds nothing.
   */
  async schedule(data: WebhookJobData): Promise<void> {
    await this.log.scheduled(data.job_id);
    await (await this.queue.ready()).add('deliver', data, {
      jobId: `webhook-${data.job_id}`,
      attempts: this.retry.attempts,
      // Standard Webhooks: exponential backoff with jitter, so retries of many receivers spread out.
      backoff: { type: 'exponential', delay: this.retry.backoffMs, jitter: 0.2 },
      removeOnComplete: { age: RESULT_TTL_SECONDS },
      removeOnFail: { age: RESULT_TTL_SECONDS },
    });
  }

  /** What a job's status shows of its webhook: null when the job has no `webhook_url`. */
  async field(url: string | undefined, jobId: string): Promise<WebhookField> {
    return url ? { url, ...(await this.log.status(jobId)) } : null;
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
