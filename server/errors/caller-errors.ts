import { errorOf, retryAfter } from './domain-error.js';

/** The caller's input breaks a rule; the message names the parameter and the rule. */
export class BadInputError extends errorOf(400, 'bad_input') {}

/** A body over its size limit. */
export class PayloadTooLargeError extends errorOf(413, 'payload_too_large') {}

export class UnsupportedMediaTypeError extends errorOf(415, 'unsupported_media_type') {}

export class NotFoundError extends errorOf(404, 'not_found') {}

/** No key, or a key that does not exist. */
export class UnauthorizedError extends errorOf(401, 'unauthorized') {}

/** The key's tier does not include the feature. */
export class TierTooLowError extends errorOf(402, 'tier_too_low') {}

/** An inactive or suspended key. */
export class ForbiddenError extends errorOf(403, 'forbidden') {}

/**
 * A limit was reached. The message says when to retry and how to get more; the reply
 * carries `Retry-After` (and whatever `RateLimit-*` headers the limiter adds).
 */
export class OverLimitError extends errorOf(429, 'rate_limited') {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    extraHeaders: Record<string, string> = {},
  ) {
    super(message);
    Object.assign(this.headers, retryAfter(retryAfterSeconds), extraHeaders);
  }
}
