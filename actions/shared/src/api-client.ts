import { gzipSync } from 'node:zlib';
import { retryAfterMs } from '../../../server/net/retry-after.js';

/**
 * The SiteLens API as the actions see it: JSON in and out. A failure is one line a person
 * can act on: the method and path (never the query, which may hold the key or long
 * encoded targets), the HTTP status and the API's own `error` message; never an HTML body.
 */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when no response arrived. */
    readonly status: number,
    message: string,
    /** The API's JSON error body (e.g. a 413's `limit`), when it sent one. */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /**
   * The API itself could not do the work (unreachable, a proxy's error page, the key
   * refused, the quota spent, the service down), as opposed to a target site that failed,
   * which the API reports with its own `{ error }` as a 502 or 504.
   */
  get isApiFailure(): boolean {
    if (this.status === 0 || [401, 402, 403, 429].includes(this.status)) return true;
    return this.status >= 500 && !((this.status === 502 || this.status === 504) && this.body);
  }
}

export interface ApiClientOptions {
  /** e.g. https://sitelens.example.com (no trailing slash needed). */
  baseUrl: string;
  /** Sent as X-API-Key, to `baseUrl` only; keyless calls get the strictest limits. */
  key?: string;
  /** Retries of a 429 (after its Retry-After) and of a 503 or gateway 502. @default 3 */
  retries?: number;
  /** Longest Retry-After honoured, in s; a longer one fails at once. @default 90 */
  maxRetryAfterSeconds?: number;
  /** Cap of one request, in ms (a full dead-link crawl may take up to 120 s). @default 180000 */
  timeoutMs?: number;
  /** Waits between attempts (tests pass a shorter one). */
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry, e.g. to log it; `reason` is `429`, `503` or a network error code. */
  onRetry?: (info: { reason: string; waitMs: number; attempt: number }) => void;
}

export type Query = Record<string, string | number | boolean | string[] | undefined>;

export interface ApiClient {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
}

/** Bodies longer than this (characters of JSON) are sent gzipped. */
const GZIP_OVER = 64 * 1024;

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createApiClient(opts: ApiClientOptions): ApiClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const retries = opts.retries ?? 3;
  const sleep = opts.sleep ?? defaultSleep;

  async function request<T>(method: 'GET' | 'POST', path: string, query: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'sitelens-action' };
    if (opts.key) headers['x-api-key'] = opts.key;
    let payload: string | Uint8Array<ArrayBuffer> | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
      // Documents and their set's anchors compress several times over; the API inflates gzip bodies.
      if (payload.length > GZIP_OVER) {
        payload = new Uint8Array(gzipSync(payload));
        headers['content-encoding'] = 'gzip';
      }
    }
    const what = `${method} ${path}`;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(base + path + query, {
          method,
          headers,
          body: payload,
          // Never follow: a redirect would carry the key to wherever it points.
          redirect: 'manual',
          signal: AbortSignal.timeout(opts.timeoutMs ?? 180_000),
        });
      } catch (err) {
        const cause = networkCause(err);
        if (attempt <= retries && cause !== 'TimeoutError') {
          const waitMs = 1000 * 2 ** (attempt - 1);
          opts.onRetry?.({ reason: cause, waitMs, attempt });
          await sleep(waitMs);
          continue;
        }
        throw new ApiError(0, `${what}: could not reach the SiteLens API at ${origin} (${cause})`);
      }
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        const to = redirectOrigin(res.headers.get('location'), base);
        throw new ApiError(res.status, `${what} was redirected (${res.status}) to ${to}; set api_url to the API's own address (the key is never sent to a redirect)`);
      }
      const text = await res.text();
      const json = parseJson(text);
      if (res.ok) {
        if (json === undefined) throw new ApiError(res.status, `${what}: ${notTheApi(res, origin)}`);
        return json as T;
      }
      const envelope = isErrorEnvelope(json) ? json : undefined;
      const waitMs = retryDelay(res, envelope, attempt, opts.maxRetryAfterSeconds ?? 90);
      if (waitMs !== null && attempt <= retries) {
        opts.onRetry?.({ reason: String(res.status), waitMs, attempt });
        await sleep(waitMs);
        continue;
      }
      const message = envelope ? oneLine(envelope.error) : notTheApi(res, origin);
      throw new ApiError(res.status, `${what} failed (${res.status}): ${message}`, envelope);
    }
  }

  return {
    get: (path, q) => request('GET', path, queryString(q)),
    post: (path, body) => request('POST', path, '', body),
  };
}

/** `?a=1&exclude=x&exclude=y`: arrays repeat their name; empty values are left out. */
function queryString(q: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined && item !== '') params.append(k, String(item));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** A reply that is not the API's JSON (a proxy's HTML page, a wrong api_url), described without its body. */
const notTheApi = (res: Response, origin: string) =>
  `${origin} answered ${(res.headers.get('content-type') ?? 'no content type').split(';')[0]} instead of the API's JSON; is api_url the SiteLens API?`;

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 500);

/** Only the origin of a redirect target: its path and query may be long or hold tokens. */
function redirectOrigin(location: string | null, base: string): string {
  if (!location) return 'an unnamed location';
  try {
    return new URL(location, base).origin;
  } catch {
    return 'an invalid location';
  }
}

/**
 * ms to wait before retrying, or null for no retry. 429: its Retry-After (seconds or a date).
 * 503, and a 502 from a proxy in front of the API: backoff 1 s, 2 s, 4 s. A 502 with the
 * API's own `{ error }` body means the *target* is unreachable: retrying will not help.
 */
function retryDelay(res: Response, envelope: unknown, attempt: number, maxSeconds: number): number | null {
  if (res.status === 429) {
    const asked = retryAfterMs(res.headers.get('retry-after'));
    const seconds = asked === undefined ? 2 ** attempt : asked / 1000;
    return seconds <= maxSeconds ? seconds * 1000 : null;
  }
  if (res.status === 503 || (res.status === 502 && !envelope)) return 1000 * 2 ** (attempt - 1);
  return null;
}

/** The innermost code of a fetch failure: ECONNREFUSED, ENOTFOUND, TimeoutError. */
function networkCause(err: unknown): string {
  let e = err as { code?: string; name?: string; cause?: unknown } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  if (e?.code) return e.code;
  return e?.name === 'TimeoutError' ? 'TimeoutError' : ((e as Error | undefined)?.message ?? String(err));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON (a proxy's HTML error page); described by its content type only
  }
}

const isErrorEnvelope = (v: unknown): v is { error: string } & Record<string, unknown> =>
  typeof v === 'object' && v !== null && typeof (v as { error?: unknown }).error === 'string';
