/**
 * True for the errors ioredis (and BullMQ through it) raises when Redis cannot be reached:
 * the offline queue is off, the connection is closed, a command timed out, retries ran out,
 * or the rate limiter found the connection not ready. Redis's own replies (WRONGTYPE,
 * NOSCRIPT, …) are not unavailability and stay our bugs.
 */
export function isRedisUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const o = e as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
    if (o.name === 'MaxRetriesPerRequestError') return true;
    if (typeof o.message === 'string' && unavailable.some((re) => re.test(o.message as string))) return true;
    e = o.cause;
  }
  return false;
}

const unavailable = [
  /^Stream isn't writeable and enableOfflineQueue options is false/,
  /^Connection is closed\.?$/,
  /^Command timed out$/,
  /^Redis connection is not ready$/,
  /^Reached the max retries per request limit/,
  /^connect (ECONNREFUSED|ETIMEDOUT|ENOENT)/,
];
