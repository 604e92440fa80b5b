import { errorOf, retryAfter } from './domain-error.js';

/**
 * One of our own dependencies (Redis, the browser, a worker pool) is unavailable for a
 * moment. Answers 503 with `Retry-After`; the caller's request was fine.
 */
export class DependencyDownError extends errorOf(503, 'dependency_down') {
  constructor(
    /** What is down, for logs and metrics (`redis`, `browser`). */
    readonly dependency: string,
    message: string,
    retryAfterSeconds = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    Object.assign(this.headers, retryAfter(retryAfterSeconds));
  }
}

/** A queued job failed after its retries; the message carries the failure's own. */
export class JobFailedError extends errorOf(422, 'job_failed') {}

/** Our own bug. The caller sees only "internal error"; the cause goes to the log. */
export class InternalError extends errorOf(500, 'internal') {}
