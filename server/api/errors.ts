/** An error with the HTTP status and stable code it maps to; the message is shown to the caller. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = codeFor(status),
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

function codeFor(status: number): string {
  return (
    {
      400: 'bad_request',
      401: 'unauthorized',
      402: 'payment_required',
      403: 'forbidden',
      404: 'not_found',
      413: 'payload_too_large',
      415: 'unsupported_media_type',
      429: 'rate_limited',
      502: 'target_unreachable',
      504: 'target_timeout',
    }[status] ?? 'internal'
  );
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, 'rate_limited', { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
