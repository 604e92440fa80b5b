import { DomainError } from './domain-error.js';

/**
 * An error of the HTTP protocol itself with an explicit status (405, 414, …), for the few
 * replies no domain error names. Domain code throws the named errors instead.
 */
export class HttpError extends DomainError {
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    message: string,
    readonly code = defaultCode(status),
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.headers = { ...headers };
  }
}

function defaultCode(status: number): string {
  return (
    {
      400: 'bad_input',
      401: 'unauthorized',
      402: 'tier_too_low',
      403: 'forbidden',
      404: 'not_found',
      405: 'method_not_allowed',
      413: 'payload_too_large',
      415: 'unsupported_media_type',
      422: 'unprocessable',
      429: 'rate_limited',
      502: 'target_unreachable',
      503: 'dependency_down',
      504: 'target_timeout',
    }[status] ?? (status >= 500 ? 'internal' : 'http_error')
  );
}
