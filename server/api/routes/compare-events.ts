import type { Response } from 'express';
import { DependencyDownError, JobFailedError, NotFoundError, asDomainError } from '../../errors/index.js';
import { openEventStream } from '../event-stream.js';
import type { CompareJob } from '../../jobs/compare-job.js';
import { pause } from '../../time-bounds.js';

/** How often the stream reads the job; progress is coarse (one step per check and side). */
const POLL_MS = 500;
/** Failed reads in a row before the stream gives up with the store's error. */
const MAX_HICCUPS = 10;

/**
 * Polls the job and writes what changed: `progress` while it runs, then `report` or `error`.
 * The job lives in Redis (any worker may run it), so reading it is the one way to follow it.
 */
export async function streamJobEvents(
  first: CompareJob,
  res: Response,
  statusOf: (job: CompareJob) => Promise<{ progress: unknown; report: unknown; status: string; error: string | null; code: string | null }>,
  /** The job again, or null once it expired. */
  reload: (id: string) => Promise<CompareJob | null>,
) {
  const sse = openEventStream(res);
  let job: CompareJob = first;
  let last = '';
  let hiccups = 0;
  try {
    for (let poll = 0; !sse.gone.aborted; poll++) {
      let s;
      try {
        if (poll > 0) {
          const next = await reload(first.id ?? '');
          if (!next) throw new NotFoundError('the job expired: results are kept 24 hours');
          job = next;
        }
        s = await statusOf(job);
        hiccups = 0;
      } catch (err) {
        // A read that timed out (a busy Redis, a blocked loop) is tried again at the next poll; a store that stays away ends the stream.
        if (!(asDomainError(err) instanceof DependencyDownError) || ++hiccups > MAX_HICCUPS) throw err;
        await pause(POLL_MS);
        continue;
      }
      const progress = JSON.stringify(s.progress);
      if (s.progress && progress !== last) sse.event('progress', s.progress);
      last = progress;
      if (s.report) {
        sse.event('report', s.report);
        break;
      }
      if (s.status === 'failed') {
        // The job's own code (what failed) with the status every failed job answers.
        sse.fail(new JobFailedError(s.error ?? 'the comparison failed'), s.code);
        break;
      }
      await pause(POLL_MS);
    }
  } catch (err) {
    sse.fail(err);
  } finally {
    sse.end();
  }
}
