/** The SiteLens API as the actions see it: JSON in and out, errors carrying the API's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClientOptions {
  /** e.g. https://api.sitelens.dev (no trailing slash needed). */
  baseUrl: string;
  /** Sent as X-API-Key; keyless calls get the strictest limits. */
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

export interface ApiClient {
  get<T>(path: string, query?: Record<string, string | number | boolean | undefined>): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createApiClient(opts: ApiClientOptions): ApiClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const retries = opts.retries ?? 3;
  const sleep = opts.sleep ?? defaultSleep;

  async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'sitelens-action' };
    if (opts.key) headers['x-api-key'] = opts.key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
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
        throw new ApiError(0, `${method} ${path}: could not reach the API at ${base} (${cause})`);
      }
      const text = await res.text();
      const json = parseJson(text);
      if (res.ok) {
        if (json === undefined) throw new ApiError(res.status, `${method} ${path}: the API answered ${res.status} without JSON`);
        return json as T;
      }
      const waitMs = retryDelay(res, json, attempt, opts.maxRetryAfterSeconds ?? 90);
      if (waitMs !== null && attempt <= retries) {
        opts.onRetry?.({ reason: String(res.status), waitMs, attempt });
        await sleep(waitMs);
        continue;
      }
      const message = isErrorEnvelope(json) ? json.error : text.trim().slice(0, 200) || res.statusText;
      throw new ApiError(res.status, `${method} ${path} failed (${res.status}): ${message}`);
    }
  }

  const query = (q: Record<string, string | number | boolean | undefined> = {}) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') params.set(k, String(v));
    const s = params.toString();
    return s ? `?${s}` : '';
  };

  return {
    get: (path, q) => request('GET', path + query(q)),
    post: (path, body) => request('POST', path, body),
  };
}

/**
 * ms to wait before retrying, or null for no retry. 429: its Retry-After (seconds or a date).
 * 503, and a 502 from a proxy in front of the API: backoff 1 s, 2 s, 4 s. A 502 with the
 * API's own `{ error }` body means the *target* is unreachable: retrying will not help.
 */
function retryDelay(res: Response, json: unknown, attempt: number, maxSeconds: number): number | null {
  if (res.status === 429) {
    const seconds = parseRetryAfter(res.headers.get('retry-after')) ?? 2 ** attempt;
    return seconds <= maxSeconds ? seconds * 1000 : null;
  }
  if (res.status === 503 || (res.status === 502 && !isErrorEnvelope(json))) return 1000 * 2 ** (attempt - 1);
  return null;
}

/** The innermost code of a fetch failure: ECONNREFUSED, ENOTFOUND, TimeoutError. */
function networkCause(err: unknown): string {
  let e = err as { code?: string; name?: string; cause?: unknown } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  if (e?.code) return e.code;
  return e?.name === 'TimeoutError' ? 'TimeoutError' : ((e as Error | undefined)?.message ?? String(err));
}

export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON (a proxy's HTML error page); the caller reports the text
  }
}

const isErrorEnvelope = (v: unknown): v is { error: string } =>
  typeof v === 'object' && v !== null && typeof (v as { error?: unknown }).error === 'string';
