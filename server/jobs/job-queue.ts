import crypto from 'node:crypto';
import type { Job, Queue } from 'bullmq';
import { ProducerQueue } from './producer-queue.js';
import type { Redis, RedisOptions } from 'ioredis';
import { NotFoundError, TargetRefusedError } from '../errors/index.js';
import type { TargetPolicy } from '../net/target-policy.js';
import { asWaitingClient, type ReplicaWait } from '../store/replica-wait.js';

/** A queued job as the API shows it. */
export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed';

/** How long queued jobs' outcomes (and the jobs themselves) are kept: 24 hours. */
export const RESULT_TTL_SECONDS = 24 * 60 * 60;

/** What every queued job carries besides its own options: whose it is and where its outcome goes. Never secrets. */
export interface OwnedJobData {
  /** Hash of the key that owns the job; other keys see 404. */
  owner: string;
  /** Receives the outcome, signed per Standard Webhooks. */
  webhook_url?: string;
}

/** The outcome of a job that failed for good, for every kind (its webhook body and status say the same). */
export interface JobFailure {
  job_id: string;
  status: 'failed';
  /** What went wrong and what to do next, as the HTTP API would say it. */
  error: string;
  /** The error's stable code (`target_unreachable`, `blocked_target`, …). */
  code: string;
}

export const isJobFailure = (outcome: unknown): outcome is JobFailure =>
  typeof outcome === 'object' && outcome !== null && (outcome as { status?: unknown }).status === 'failed' && 'error' in outcome;

/** What tells one queued job kind from another. Names and keys stay across releases: jobs in flight outlive an upgrade. */
export interface JobKind {
  /** The kind's name in logs and webhook jobs (`screenshot`, `compare`). */
  name: 'screenshot' | 'compare';
  /** BullMQ queue name. */
  queue: string;
  /** BullMQ job name. */
  jobName: string;
  /** Runs of one job before it fails. */
  attempts: number;
  /** The Redis key of a job's outcome. */
  outcomeKey(prefix: string, jobId: string): string;
  /** What a job of this kind is called in messages (`job`, `comparison`). */
  noun: string;
}

/**
 * A job's target checked at submission: one the policy refuses is the caller's to fix now
 * (400); one whose name does not resolve yet is the job's to report, after its retries.
 */
export async function assertJobTarget(policy: TargetPolicy, url: string): Promise<void> {
  await policy.assertResolvable(url).catch((err: unknown) => {
    if (err instanceof TargetRefusedError) throw err;
  });
}

/** A job read for its status: the contract's state, its result once completed, and why it failed. */
export interface JobRead<R> {
  status: JobStatus;
  /** The completed job's outcome; null until then and for a failure. */
  result: R | null;
  error: string | null;
  /** The failure's stable code; null when the job failed outside our code (its reason only). */
  code: string | null;
  /** ISO 8601, once completed or failed. */
  completedAt: string | null;
}

/**
 * One queued job kind's queue and read model: BullMQ producer, the owner's lookup, the status
 * in the contract's words, and the outcomes, stored apart from the BullMQ job before it
 * completes, so its webhook finds them and a re-run (its worker died after storing) reuses
 * them instead of working again.
 */
export class JobQueue<D extends OwnedJobData, O> {
  private readonly producer: ProducerQueue<D>;

  constructor(
    readonly kind: JobKind,
    /** Producer options: no offline queue, so a request fails fast while Redis is away. */
    connection: RedisOptions,
    protected readonly redis: Redis,
    protected readonly prefix: string,
    /** An acknowledged job stands on the replicas (REDIS_WAIT_REPLICAS). */
    private readonly replicated?: ReplicaWait,
  ) {
    this.producer = new ProducerQueue(kind.queue, connection, prefix);
  }

  /** The BullMQ queue, set up (see ProducerQueue). */
  queue(): Promise<Queue<D>> {
    return this.producer.ready();
  }

  /** Adds a job under a fresh id, retried with exponential backoff and kept as long as its outcome; answers the id. */
  async enqueue(data: D): Promise<string> {
    const id = crypto.randomUUID();
    const queue = (await this.queue()) as Queue;
    await queue.add(this.kind.jobName, data, {
      jobId: id,
      attempts: this.kind.attempts,
      backoff: { type: 'exponential', delay: 2_000 },
      removeOnComplete: { age: RESULT_TTL_SECONDS },
      removeOnFail: { age: RESULT_TTL_SECONDS },
    });
    // The queue's own connection wrote the job, so it is the one that waits for the replicas.
    if (this.replicated) {
      await this.replicated(asWaitingClient(await queue.getBackend().client)).catch(async (err: unknown) => {
        // Not acknowledged, so not run: the caller is told to retry and must not get it twice.
        await queue.remove(id).catch(() => undefined);
        throw err;
      });
    }
    return id;
  }

  /** The job if it exists and belongs to `owner` (another key's job reads as unknown). */
  async find(jobId: string, owner: string): Promise<Job<D> | null> {
    const job = (await (await this.queue()).getJob(jobId)) as Job<D> | undefined;
    return job && job.data.owner === owner ? job : null;
  }

  /** The owner's job, or a 404 saying how long jobs are kept. */
  async load(jobId: string, owner: string): Promise<Job<D>> {
    const job = await this.find(jobId, owner);
    if (!job) throw new NotFoundError(`${this.kind.noun} ${jobId} is unknown (results are kept 24 hours)`);
    return job;
  }

  /**
   * BullMQ's state in the contract's words. A job read before it finished and found finished
   * now gets its outcome fields (finish time, failure reason, attempts) read again, so a status
   * never says "failed" without the reason.
   */
  async status(job: Job<D>): Promise<JobStatus> {
    const state = await job.getState();
    if ((state === 'completed' || state === 'failed') && !job.finishedOn && job.id) {
      const fresh = (await (await this.queue()).getJob(job.id)) as Job<D> | undefined;
      if (fresh) Object.assign(job, { finishedOn: fresh.finishedOn, failedReason: fresh.failedReason, attemptsMade: fresh.attemptsMade, returnvalue: fresh.returnvalue });
    }
    if (state === 'completed') return 'completed';
    if (state === 'failed') return 'failed';
    if (state === 'active') return 'processing';
    return 'queued';
  }

  /** The job's status, with its result or its failure once it has one. */
  async read(job: Job<D>): Promise<JobRead<Exclude<O, JobFailure>>> {
    const status = await this.status(job);
    const done = status === 'completed' || status === 'failed';
    const outcome = done ? await this.outcome(job.id ?? '') : null;
    const completedAt = done ? new Date(job.finishedOn ?? Date.now()).toISOString() : null;
    if (isJobFailure(outcome)) return { status: 'failed', result: null, error: outcome.error, code: outcome.code, completedAt };
    if (status === 'failed') return { status, result: null, error: job.failedReason || 'failed', code: null, completedAt };
    return { status, result: outcome as Exclude<O, JobFailure> | null, error: null, code: null, completedAt };
  }

  /** Records what the job came to; the first outcome stored stays (a re-run does not replace it). */
  async storeOutcome(jobId: string, outcome: O): Promise<void> {
    await this.redis.set(this.kind.outcomeKey(this.prefix, jobId), JSON.stringify(outcome), 'EX', RESULT_TTL_SECONDS, 'NX');
  }

  async outcome(jobId: string): Promise<O | null> {
    const raw = await this.redis.get(this.kind.outcomeKey(this.prefix, jobId));
    return raw ? (JSON.parse(raw) as O) : null;
  }

  close(): Promise<void> {
    return this.producer.close();
  }
}
