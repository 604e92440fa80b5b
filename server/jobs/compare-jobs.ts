import crypto from 'node:crypto';
import { Queue, type ConnectionOptions, type Job } from 'bullmq';
import type { Redis, RedisOptions } from 'ioredis';
import type { CompareInput, CompareReport, HealthPoint } from '../compare/compare-report.js';
import type { CompareProgress } from '../compare/compare-run.js';
import { addJob, findOwnedJob, jobStatus, OutcomeStore, type JobStatus } from './job-basics.js';

/** What a queued comparison carries: what to compare and for whom, never secrets. */
export interface CompareJobData {
  input: CompareInput;
  webhook_url?: string;
  /** Where the trend picture will be, known from the start so a caller can link it at once. */
  trend_id: string;
  /** Hash of the key that owns the job; other keys see 404. */
  owner: string;
}

/** What a finished comparison leaves (also its webhook body). */
export type CompareOutcome =
  | { job_id: string; status: 'completed'; report: CompareReport }
  | { job_id: string; status: 'failed'; error: string; code: string };

/** A queued comparison as BullMQ holds it (routers name it without importing BullMQ). */
export type CompareJob = Job<CompareJobData>;

export const COMPARE_QUEUE = 'compare';
/** Runs of one comparison before it fails. */
export const COMPARE_ATTEMPTS = 2;
/** Health scores kept per site and key. */
export const HISTORY_LENGTH = 20;
const HISTORY_TTL_SECONDS = 90 * 24 * 3600;
/** The trend picture is linked from PR comments: kept a week, like diff images. */
export const TREND_KEPT_SECONDS = 7 * 24 * 3600;

/**
 * The comparison queue and its read model: outcomes (stored before the job completes, so
 * its webhook job finds them and a re-run reuses them), the short health history per site
 * and key, and the trend pictures behind unguessable URLs.
 */
export class CompareJobs {
  readonly queue: Queue<CompareJobData>;
  private readonly outcomes: OutcomeStore<CompareOutcome>;

  constructor(
    /** Producer options: no offline queue, so a request fails fast while Redis is away. */
    connection: RedisOptions,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.queue = new Queue(COMPARE_QUEUE, { connection: connection as ConnectionOptions, prefix: `${prefix}bull` });
    // Errors reach the callers of each command; the event only reports reconnects.
    this.queue.on('error', () => undefined);
    this.outcomes = new OutcomeStore<CompareOutcome>(redis, (jobId) => this.k('outcome', jobId));
  }

  enqueue(data: CompareJobData): Promise<string> {
    return addJob(this.queue, 'compare', data, COMPARE_ATTEMPTS);
  }

  /** The job if it exists and belongs to `owner`. */
  find(jobId: string, owner: string): Promise<Job<CompareJobData> | null> {
    return findOwnedJob(this.queue, jobId, owner);
  }

  status(job: Job<CompareJobData>): Promise<JobStatus> {
    return jobStatus(this.queue, job);
  }

  /** The progress the worker last reported; null before it started. */
  progress(job: Job<CompareJobData>): CompareProgress | null {
    const p = job.progress;
    return typeof p === 'object' && p !== null && 'total' in p ? (p as CompareProgress) : null;
  }

  /** Records what the job came to; the first outcome stored stays (a re-run does not replace it). */
  storeOutcome(outcome: CompareOutcome): Promise<void> {
    return this.outcomes.store(outcome.job_id, outcome);
  }

  outcome(jobId: string): Promise<CompareOutcome | null> {
    return this.outcomes.get(jobId);
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

  close(): Promise<void> {
    return this.queue.close();
  }

  private k = (...parts: string[]) => `${this.prefix}compare:${parts.join(':')}`;
}
