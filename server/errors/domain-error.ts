/**
 * The root of the error vocabulary. Domain code throws a subclass; one function
 * (`httpReply` in `http-reply.ts`) turns any of them into a status, headers and the
 * `{ "error": "…" }` body, for routers, SSE streams, batch items, workers and webhooks alike.
 *
 * `message` is shown to the caller: it says what happened and what to do next, and names
 * no address the caller did not give.
 */
export abstract class DomainError extends Error {
  /** HTTP status the error answers with. */
  abstract readonly status: number;
  /** Stable machine-readable code (logs, metrics, job failures); never reworded. */
  abstract readonly code: string;
  /** Reply headers the error brings (`Retry-After`, `RateLimit-*`). */
  readonly headers: Record<string, string> = {};
  /** Extra fields of the error body next to `error` (e.g. the limits a 413 names, so a client can split). */
  readonly details: Record<string, unknown>;

  constructor(message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options);
    this.name = new.target.name;
    this.details = options?.details ?? {};
  }
}

/** `Retry-After` in whole seconds, at least 1. */
export const retryAfter = (seconds: number) => ({ 'Retry-After': String(Math.max(1, Math.ceil(seconds))) });

/**
 * The base of an error with one status and code, so each member of the vocabulary is one
 * line: `export class NotFoundError extends errorOf(404, 'not_found') {}`. Subclasses may
 * narrow the code (`readonly code = 'render_timeout'`).
 */
export function errorOf(status: number, code: string) {
  return class extends DomainError {
    readonly status = status;
    readonly code: string = code;
  };
}
