import { UnrecoverableError, type Job } from 'bullmq';
import { httpReply, type HttpReply } from '../errors/index.js';
import type { WebhookJobData } from '../jobs/screenshot-jobs.js';
import { diedTooOften } from './stalls.js';
import type { WorkerDeps } from './worker-deps.js';

/** What a queued job of one kind does, for `runJobOnce`. */
export interface JobSteps<O> {
  /** Names the job in the log. */
  kind: string;
  /** Attempts when the job does not say. */
  attempts: number;
  /** The outcome a run stored, if any. */
  stored(): Promise<O | null>;
  /** Stores the outcome unless one is stored already (the first run to store wins). */
  store(outcome: O): Promise<void>;
  /** The job's work; throws a domain error when it fails. */
  run(): Promise<O>;
  /** The outcome of a job that failed for good. */
  failed(reply: HttpReply): O;
  /** Why the outcome is a failure; null for a success. */
  failure(outcome: O): string | null;
  /** The webhook to schedule once the outcome is stored. */
  webhook?: WebhookJobData;
}

/**
 * One queued job, idempotent at every step: run (unless a run that died already stored the
 * outcome), store the outcome, schedule its webhook, and only then complete. A worker killed
 * at any point leaves a job the next worker finishes without a lost or doubled webhook.
 */
export async function runJobOnce<O>(job: Job, deps: WorkerDeps, steps: JobSteps<O>): Promise<{ job_id: string }> {
  const outcome = (await steps.stored()) ?? (await settle(job, deps, steps));
  if (steps.webhook) await deps.jobs.scheduleWebhook(steps.webhook);
  const failure = steps.failure(outcome);
  if (failure !== null) throw new UnrecoverableError(failure);
  return { job_id: job.id ?? '' };
}

async function settle<O>(job: Job, deps: WorkerDeps, steps: JobSteps<O>): Promise<O> {
  let outcome: O;
  try {
    const died = diedTooOften(job);
    if (died) throw died;
    outcome = await steps.run();
  } catch (err) {
    const reply = httpReply(err);
    if (reply.internal) deps.log.error({ err, job: job.id }, `${steps.kind} job failed`);
    // The caller's mistake (bad input, a refused target) will not get better; the rest is retried.
    const hopeless = (reply.status < 500 && reply.status !== 429) || diedTooOften(job) !== null;
    if (!hopeless && job.attemptsMade + 1 < (job.opts.attempts ?? steps.attempts)) throw err;
    outcome = steps.failed(reply);
  }
  await steps.store(outcome);
  // A run that stored first wins; a webhook never carries one outcome while the API shows another.
  return (await steps.stored()) ?? outcome;
}
