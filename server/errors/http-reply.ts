import { isRedisUnavailable } from '../store/redis-errors.js';
import { BadInputError, PayloadTooLargeError, UnsupportedMediaTypeError } from './caller-errors.js';
import { DomainError } from './domain-error.js';
import { HttpError } from './http-error.js';
import { DependencyDownError, InternalError } from './service-errors.js';

/** What an error answers over HTTP: the one `{ "error": "…" }` envelope. */
export interface HttpReply {
  status: number;
  /** Stable code of the error (not in the body; for logs, SSE events and job records). */
  code: string;
  headers: Record<string, string>;
  /** `{ error }`, plus the error's `details` fields when it has any. */
  body: { error: string } & Record<string, unknown>;
  /** True for our own bugs (500): log them with their stack. */
  internal: boolean;
}

/** The reply for anything thrown. Routers, SSE streams, batch items, workers and webhooks all use this. */
export function httpReply(err: unknown): HttpReply {
  const e = asDomainError(err);
  return { status: e.status, code: e.code, headers: { ...e.headers }, body: { ...e.details, error: e.message }, internal: e.status >= 500 && e instanceof InternalError };
}

/**
 * Any thrown value as a member of the vocabulary. Errors from libraries that carry a known
 * meaning (Express's body parser, Redis being away) become their domain error; anything else
 * is our bug.
 */
export function asDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  if (isRedisUnavailable(err)) {
    return new DependencyDownError('redis', 'the service store (Redis) is unavailable for a moment; retry in a few seconds', 2, { cause: err });
  }
  const e = err as { type?: string; status?: number; limit?: number; message?: string; expose?: boolean } | null;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new BadInputError('request body is not valid JSON');
    case 'entity.too.large':
      return new PayloadTooLargeError(`request body is larger than the limit of ${e.limit} bytes; send a smaller body`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError(e.message ?? 'unsupported encoding');
  }
  // http-errors from Express and its parsers (e.g. 400 for a malformed URI), shown as they say.
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose !== false) {
    return new HttpError(e.status, e.message ?? 'bad request');
  }
  return new InternalError('internal error', { cause: err });
}
