import type { Job } from 'bullmq';
import { TargetFailedError } from '../errors/index.js';

/**
 * Runs of a screenshot or comparison whose worker died (a page that kills its worker every
 * time). The run after the last of them reports the job failed, webhook included, instead of
 * rendering again. BullMQ fails a job past its stall limit inside Redis without running any
 * of our code (no outcome, no webhook), so its limit is set one higher: our failure comes first.
 */
export const MAX_STALLS = 5;

/** The error of a job whose worker died MAX_STALLS times running it; null while it may run again. */
export function diedTooOften(job: Job): TargetFailedError | null {
  if (job.stalledCounter < MAX_STALLS) return null;
  return new TargetFailedError(
    `the worker died ${job.stalledCounter} times while running this job (a page that exhausts memory or crashes the browser); it is not run again`,
  );
}
