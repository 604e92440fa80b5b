import type { Job, Queue } from 'bullmq';

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
