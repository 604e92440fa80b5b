import crypto from 'node:crypto';
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** A queued job as the API shows it. */
export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed';

/** How long queued jobs' outcomes (and the jobs themselves) are kept: 24 hours. */
export const RESULT_TTL_SECONDS = 24 * 60 * 60;

/** The job if it exists and belongs to `owner` (another key's job reads as unknown). */
export async function findOwnedJob<T extends { owner: string }>(queue: Queue<T>, jobId: string, owner: string): Promise<Job<T> | null> {
  const job = (await queue.getJob(jobId)) as Job<T> | undefined;
  return job && job.data.owner === owner ? job : null;
}

/**
 * BullMQ's state in the contract's words. A job read before it finished and found finished
 * now gets its outcome fields (finish time, failure reason, attempts) read again, so a status
 * never says "failed" without the reason.
 */
export async function jobStatus<T>(queue: Queue<T>, job: Job<T>): Promise<JobStatus> {
  const state = await job.getState();
  if ((state === 'completed' || state === 'failed') && !job.finishedOn && job.id) {
    const fresh = (await queue.getJob(job.id)) as Job<T> | undefined;
    if (fresh) Object.assign(job, { finishedOn: fresh.finishedOn, failedReason: fresh.failedReason, attemptsMade: fresh.attemptsMade, returnvalue: fresh.returnvalue });
  }
  if (state === 'completed') return 'completed';
  if (state === 'failed') return 'failed';
  if (state === 'active') return 'processing';
  return 'queued';
}

/** Adds a job under a fresh id, retried with exponential backoff and kept as long as its outcome; answers the id. */
export async function addJob<T>(queue: Queue<T>, name: string, data: T, attempts: number): Promise<string> {
  const id = crypto.randomUUID();
  await (queue as Queue).add(name, data, {
    jobId: id,
    attempts,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: { age: RESULT_TTL_SECONDS },
    removeOnFail: { age: RESULT_TTL_SECONDS },
  });
  return id;
}

/** What queued jobs came to, kept as long as the jobs: the first outcome stored stays (a re-run does not replace it). */
export class OutcomeStore<O> {
  constructor(
    private readonly redis: Redis,
    private readonly key: (jobId: string) => string,
  ) {}

  async store(jobId: string, outcome: O): Promise<void> {
    await this.redis.set(this.key(jobId), JSON.stringify(outcome), 'EX', RESULT_TTL_SECONDS, 'NX');
  }

  async get(jobId: string): Promise<O | null> {
    const raw = await this.redis.get(this.key(jobId));
    return raw ? (JSON.parse(raw) as O) : null;
  }
}
