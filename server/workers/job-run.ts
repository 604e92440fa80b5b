import { UnrecoverableError, type Job } from 'bullmq';
import { httpReply } from '../errors/index.js';
import { isJobFailure, type JobFailure, type JobQueue, type OwnedJobData } from '../jobs/job-queue.js';
import type { Webhooks } from '../jobs/webhooks/webhooks.js';
import type { Logger } from '../log.js';
import { diedTooOften } from './stalls.js';

/** What a queued job of one kind does, for `runJobOnce`. */
export interface JobSteps<O> {
  /** The job's work; throws a domain error when it fails. */
  run(): Promise<O>;
  /** The outcome of a job that failed for good, from what every kind's failure says. */
  failed(failure: JobFailure): O;
}

/**
 * One queued job of any kind, idempotent at every step: run (unless a run that died already
 * stored the outcome), store the outcome, schedule its webhook, and only then complete. A
 * worker killed at any point leaves a job the next worker finishes without a lost or doubled
 * webhook.
 */
export async function runJobOnce<D extends OwnedJobData, O>(
  job: Job<D>,
  queue: JobQueue<D, O>,
  deps: { log: Logger; webhooks: Webhooks },
  steps: JobSteps<O>,
): Promise<{ job_id: string }> {
  const id = job.id ?? '';
  const outcome = (await queue.outcome(id)) ?? (await settle(job, queue, deps, steps));
  const { webhook_url: url, owner } = job.data;
  if (url) await deps.webhooks.schedule({ job_id: id, url, owner, kind: queue.kind.name });
  if (isJobFailure(outcome)) throw new UnrecoverableError(outcome.error);
  return { job_id: id };
}

async function settle<D extends OwnedJobData, O>(job: Job<D>, queue: JobQueue<D, O>, deps: { log: Logger }, steps: JobSteps<O>): Promise<O> {
  const id = job.id ?? '';
  let outcome: O;
  try {
    const died = diedTooOften(job);
    if (died) throw died;
    outcome = await steps.run();
  } catch (err) {
    const reply = httpReply(err);
    if (reply.internal) deps.log.error({ err, job: job.id }, `${queue.kind.name} job failed`);
    // The caller's mistake (bad input, a refused target) will not get better; the rest is retried.
    const hopeless = (reply.status < 500 && reply.status !== 429) || diedTooOften(job) !== null;
    if (!hopeless && job.attemptsMade + 1 < (job.opts.attempts ?? queue.kind.attempts)) throw err;
    outcome = steps.failed({ job_id: id, status: 'failed', error: reply.body.error, code: reply.code });
  }
  await queue.storeOutcome(id, outcome);
  // A run that stored first wins; a webhook never carries one outcome while the API shows another.
  return (await queue.outcome(id)) ?? outcome;
}
