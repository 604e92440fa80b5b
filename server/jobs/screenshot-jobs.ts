import { Queue, type ConnectionOptions, type Job } from 'bullmq';
import type { Redis, RedisOptions } from 'ioredis';
import { WebhookLog, type WebhookStatus } from './webhook-log.js';
import { addJob, findOwnedJob, jobStatus, OutcomeStore, RESULT_TTL_SECONDS, type JobStatus } from './job-basics.js';

export { RESULT_TTL_SECONDS, type JobStatus };

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

/** The webhook body of a job that failed after its retries. */
export interface ScreenshotJobFailure {
  job_id: string;
  url: string;
  status: 'failed';
  /** What went wrong and what to do next, as the HTTP API would say it. */
  error: string;
  /** The error's stable code (`target_unreachable`, `blocked_target`, …). */
  code: string;
}

/** What a finished job leaves: its result, or its failure. */
export type ScreenshotOutcome = ScreenshotJobResult | ScreenshotJobFailure;

/** A webhook delivery job: which outcome goes where, for whom. */
export interface WebhookJobData {
  job_id: string;
  url: string;
  /** Hash of the owning key, whose secret signs the delivery. */
  owner: string;
  /** Whose outcome is delivered. @default 'screenshot' */
  kind?: 'screenshot' | 'compare';
}

export const SCREENSHOT_QUEUE = 'screenshot';
export const WEBHOOK_QUEUE = 'webhook';
/** Renders of one job before it fails. */
export const SCREENSHOT_ATTEMPTS = 3;

/**
 * The asynchronous screenshot queue: producers, the outcome of each job, and its webhook's
 * delivery record. The outcome is stored apart from the BullMQ job, before the job
 * completes, so the webhook job (scheduled in the same step) always finds it, and a re-run
 * of the job (its worker died after storing) reuses it instead of rendering again.
 */
export class ScreenshotJobs {
  readonly screenshots: Queue<ScreenshotJobData>;
  readonly webhooks: Queue<WebhookJobData>;
  readonly webhookLog: WebhookLog;
  private readonly outcomes: OutcomeStore<ScreenshotOutcome>;

  constructor(
    /** Producer options: no offline queue, so a request fails fast while Redis is away. */
    connection: RedisOptions,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly webhook: { attempts: number; backoffMs: number },
  ) {
    const opts = { connection: connection as ConnectionOptions, prefix: `${prefix}bull` };
    this.screenshots = new Queue(SCREENSHOT_QUEUE, opts);
    this.webhooks = new Queue(WEBHOOK_QUEUE, opts);
    this.webhookLog = new WebhookLog(redis, prefix, RESULT_TTL_SECONDS);
    this.outcomes = new OutcomeStore<ScreenshotOutcome>(redis, (jobId) => `${prefix}screenshot-outcome:${jobId}`);
    // Errors reach the callers of each command; the event only reports reconnects.
    for (const q of [this.screenshots, this.webhooks]) q.on('error', () => undefined);
  }

  enqueue(data: ScreenshotJobData): Promise<string> {
    return addJob(this.screenshots, 'capture', data, SCREENSHOT_ATTEMPTS);
  }

  /** Records what the job came to; the first outcome stored stays (a re-run does not replace it). */
  storeOutcome(jobId: string, outcome: ScreenshotOutcome): Promise<void> {
    return this.outcomes.store(jobId, outcome);
  }

  outcome(jobId: string): Promise<ScreenshotOutcome | null> {
    return this.outcomes.get(jobId);
  }

  /**
   * Schedules the delivery of the job's outcome as its own job. The id is fixed per
   * screenshot job, so a re-run of the job (or of this step) adds nothing.
   */
  async scheduleWebhook(data: WebhookJobData): Promise<void> {
    await this.webhookLog.scheduled(data.job_id);
    await this.webhooks.add('deliver', data, {
      jobId: `webhook-${data.job_id}`,
      attempts: this.webhook.attempts,
      // Standard Webhooks: exponential backoff with jitter, so retries of many receivers spread out.
      backoff: { type: 'exponential', delay: this.webhook.backoffMs, jitter: 0.2 },
      removeOnComplete: { age: RESULT_TTL_SECONDS },
      removeOnFail: { age: RESULT_TTL_SECONDS },
    });
  }

  /** The job if it exists and belongs to `owner`. */
  find(jobId: string, owner: string): Promise<Job<ScreenshotJobData> | null> {
    return findOwnedJob(this.screenshots, jobId, owner);
  }

  status(job: Job<ScreenshotJobData>): Promise<JobStatus> {
    return jobStatus(this.screenshots, job);
  }

  webhookStatus(jobId: string): Promise<WebhookStatus> {
    return this.webhookLog.status(jobId);
  }

  async close(): Promise<void> {
    await Promise.all([this.screenshots.close(), this.webhooks.close()]);
  }

}
