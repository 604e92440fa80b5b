import { WaitingError, type Job, type Processor } from 'bullmq';

class HandBack extends Error {}

/**
 * A processor that gives its job back to the queue when the worker is told to stop
 * (`worker.cancelAllJobs()` at the end of a shutdown's drain): the job goes back to
 * waiting at once, for another worker, instead of staying locked until its lock expires.
 */
export function handingBack<D, R>(work: (job: Job<D, R>) => Promise<R>): Processor<D, R> {
  return async (job, token, signal) => {
    if (!signal || !token) return work(job);
    const stopped = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(new HandBack());
      signal.addEventListener('abort', () => reject(new HandBack()), { once: true });
    });
    const running = work(job);
    running.catch(() => undefined); // after a hand-back, its end is nobody's business
    try {
      return await Promise.race([running, stopped]);
    } catch (err) {
      if (!(err instanceof HandBack)) throw err;
      await job.moveToWait(token);
      throw new WaitingError();
    }
  };
}
