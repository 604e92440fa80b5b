import crypto from 'node:crypto';
import { Queue, type ConnectionOptions, type Job } from 'bullmq';
import type { Redis, RedisOptions } from 'ioredis';

/** What a queued screenshot job carries: options and ids only, never secrets. */
export interface ScreenshotJobData {
  url: string;
  format: 'webp' | 'png' | 'jpeg';
  width: number;
  height: number;
  full_page: boolean;
  webhook_url?: string;
  /** Hash of the key that owns the job; other keys see 404. */
  owner: string;
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

export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface WebhookAttempt {
  attempt: number;
  at: string;
  status: number | null;
  error: string | null;
}

export const SCREENSHOT_QUEUE = 'screenshot';
export const WEBHOOK_QUEUE = 'webhook';
/** Results and failed jobs are kept 24 h, then the job is unknown (404). */
export const RESULT_TTL_SECONDS = 24 * 60 * 60;

/** The producer side of the asynchronous screenshot queue and the job read model. */
export class ScreenshotJobs {
  readonly screenshots: Queue<ScreenshotJobData, ScreenshotJobResult>;
  readonly webhooks: Queue<{ job_id: string }>;

  constructor(
    connection: RedisOptions,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly webhook: { attempts: number; backoffMs: number },
  ) {
    // Producers behind HTTP fail fast instead of queueing commands while Redis is away.
    const opts = { connection: { ...connection, enableOfflineQueue: false } as ConnectionOptions, prefix: `${prefix}bull` };
    this.screenshots = new Queue(SCREENSHOT_QUEUE, opts);
    this.webhooks = new Queue(WEBHOOK_QUEUE, opts);
  }

  async enqueue(data: ScreenshotJobData): Promise<string> {
    const id = crypto.randomUUID();
    await this.screenshots.add('capture', data, {
      jobId: id,
      attempts: 3,
      backoff: { type: 'exponential', delay: 2_000 },
      removeOnComplete: { age: RESULT_TTL_SECONDS },
      removeOnFail: { age: RESULT_TTL_SECONDS },
    });
    return id;
  }

  /** Called by the worker when a job completed with a webhook_url. */
  async scheduleWebhook(jobId: string): Promise<void> {
    await this.webhooks.add('deliver', { job_id: jobId }, {
      jobId: `webhook-${jobId}`,
      attempts: this.webhook.attempts,
      backoff: { type: 'exponential', delay: this.webhook.backoffMs },
      removeOnComplete: { age: RESULT_TTL_SECONDS },
      removeOnFail: { age: RESULT_TTL_SECONDS },
    });
  }

  /** The job if it exists and belongs to `owner`. */
  async find(jobId: string, owner: string): Promise<Job<ScreenshotJobData, ScreenshotJobResult> | null> {
    const job = await this.screenshots.getJob(jobId);
    return job && job.data.owner === owner ? job : null;
  }

  async status(job: Job<ScreenshotJobData, ScreenshotJobResult>): Promise<JobStatus> {
    const state = await job.getState();
    if (state === 'completed') return 'completed';
    if (state === 'failed') return 'failed';
    if (state === 'active') return 'processing';
    return 'queued';
  }

  async recordWebhookAttempt(jobId: string, attempt: WebhookAttempt): Promise<void> {
    const key = `${this.prefix}webhook-attempts:${jobId}`;
    await this.redis.multi().rpush(key, JSON.stringify(attempt)).expire(key, RESULT_TTL_SECONDS).exec();
  }

  async webhookAttempts(jobId: string): Promise<WebhookAttempt[]> {
    const raw = await this.redis.lrange(`${this.prefix}webhook-attempts:${jobId}`, 0, -1);
    return raw.map((r) => JSON.parse(r) as WebhookAttempt);
  }

  async close(): Promise<void> {
    await Promise.all([this.screenshots.close(), this.webhooks.close()]);
  }
}
