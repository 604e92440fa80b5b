import { fetch as undiciFetch, type Dispatcher } from 'undici';
import type { SafeHttp } from './safe-http.js';
import { z } from 'zod';

/**
 * Request headers a caller asks to be sent to its target (a Vercel protection bypass token,
 * an `Authorization` header for a password-protected preview), and only to the target's own
 * origin: never to another host, not after a redirect off it, not to external links, not to
 * a page's third-party subresources. They are secrets: never logged, never echoed in a reply,
 * a report or a webhook (`validation.ts` leaves their values out of 400 messages), never kept
 * in a result cache, and sealed when a queued job holds them (`sealed-secrets.ts`).
 */
export interface TargetHeaders {
  /** scheme://host:port of the URL the caller gave; the only place the headers go. */
  origin: string;
  headers: Readonly<Record<string, string>>;
}

export const targetHeaderLimits = { count: 10, nameLength: 64, valueLength: 4096, totalBytes: 8192 } as const;

/** RFC 9110 token characters: what a header name may hold. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A field value: visible ASCII and Latin-1, spaces and tabs inside; no CR, LF or NUL (header injection). */
const fieldValue = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Headers the client sets itself or that describe one connection, not the request: sending a
 * caller's copy would break framing (`Content-Length`, `Transfer-Encoding`), the routing to the
 * checked address (`Host`) or a proxy hop.
 */
const refused = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

const DOC =
  'Request headers sent to the target\'s own origin only (scheme, host and port of the URL given): never to other hosts, redirects off that origin, external links or third-party subresources. For protected previews: `{"x-vercel-protection-bypass": "…"}`, `{"Authorization": "Basic …"}`. At most 10 headers, names HTTP tokens up to 64 characters, values up to 4096 characters without line breaks, 8 KiB in all; hop-by-hop headers, `Host` and `Content-Length` are refused. Never logged, echoed or cached; a queued job keeps them encrypted (the service needs `JOB_SECRETS_KEY`).';

/** The checks of a name → value map; issues name the header, never its value. */
function checkHeaders(v: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const names = Object.keys(v);
  const issue = (message: string) => ctx.addIssue({ code: 'custom', message: `target_headers ${message}` });
  if (names.length > targetHeaderLimits.count) return issue(`may hold at most ${targetHeaderLimits.count} headers, got ${names.length}`);
  const seen = new Set<string>();
  let bytes = 0;
  for (const name of names) {
    const value = v[name];
    const shown = JSON.stringify(name.slice(0, 64));
    if (!token.test(name) || name.length > targetHeaderLimits.nameLength) return issue(`header ${shown} is not a valid name (an HTTP token of 1–64 letters, digits and !#$%&'*+.^_\`|~-)`);
    const lower = name.toLowerCase();
    if (refused.has(lower)) return issue(`header ${shown} is refused (hop-by-hop headers, Host and Content-Length are set by the connection); leave it out`);
    if (seen.has(lower)) return issue(`header ${shown} is given twice (names are case-insensitive); give it once`);
    seen.add(lower);
    if (typeof value !== 'string') return issue(`header ${shown} must have a string value`);
    if (value.length > targetHeaderLimits.valueLength || !fieldValue.test(value)) {
      return issue(`header ${shown} must have a value of at most ${targetHeaderLimits.valueLength} characters without line breaks or control characters`);
    }
    bytes += name.length + value.length;
  }
  if (bytes > targetHeaderLimits.totalBytes) issue(`may hold at most ${targetHeaderLimits.totalBytes} bytes of names and values in all`);
}

/** `target_headers` in a JSON body: an object of header name → value. */
export const targetHeadersBody = z
  .record(z.string(), z.string())
  .superRefine(checkHeaders)
  .optional()
  .describe(DOC)
  .meta({ example: { 'x-vercel-protection-bypass': 'your-bypass-secret' } });

/**
 * `target_headers` in a query string: the same object as JSON (`{"Authorization":"Basic …"}`,
 * URL-encoded). A query string ends up in proxies' logs, so callers that can should prefer a
 * POST body; the service itself logs only the path.
 */
export const targetHeadersQuery = z
  .string()
  .max(16_384)
  .transform((s, ctx) => {
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch {
      v = undefined;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      ctx.addIssue({ code: 'custom', message: 'target_headers must be a JSON object of header names to values, e.g. {"x-vercel-protection-bypass":"…"}' });
      return z.NEVER;
    }
    checkHeaders(v as Record<string, unknown>, ctx);
    return v as Record<string, string>;
  })
  .optional()
  .describe(`${DOC} In a query string: the object as URL-encoded JSON.`);

/** The headers scoped to `url`'s origin; undefined when there are none. */
export function scopeTargetHeaders(url: string, headers: Record<string, string> | undefined): TargetHeaders | undefined {
  if (!headers || !Object.keys(headers).length) return undefined;
  return { origin: new URL(url).origin, headers };
}

/** The origin of a URL, or undefined for one that is not absolute. */
export function originOf(url: string | URL): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * `dispatcher` adding the headers to requests for their origin only. Every hop of a redirect
 * chain is its own dispatch (the link checker follows redirects itself), so a hop off the
 * origin goes without them.
 */
export function withTargetHeaders(dispatcher: Dispatcher, th: TargetHeaders | undefined): Dispatcher {
  if (!th) return dispatcher;
  return dispatcher.compose((dispatch) => (opts, handler) => {
    if (originOf(String(opts.origin)) !== th.origin) return dispatch(opts, handler);
    return dispatch({ ...opts, headers: mergeHeaders(opts.headers, th.headers) }, handler);
  });
}

/** undici's headers (an object, a flat [name, value, …] array or an iterable of pairs) with `extra` set over them. */
function mergeHeaders(given: Dispatcher.DispatchOptions['headers'], extra: Readonly<Record<string, string>>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const put = (k: string, v: string | string[] | undefined) => {
    if (v !== undefined) out[k.toLowerCase()] = v;
  };
  if (Array.isArray(given)) {
    for (let i = 0; i + 1 < given.length; i += 2) put(String(given[i]), given[i + 1] as string);
  } else if (given && typeof (given as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [k, v] of given as Iterable<[string, string | string[] | undefined]>) put(k, v);
  } else if (given) {
    for (const [k, v] of Object.entries(given as Record<string, string | string[] | undefined>)) put(k, v);
  }
  for (const [k, v] of Object.entries(extra)) out[k.toLowerCase()] = v;
  return out;
}

/** The guarded client with the headers added for their origin (checks that take a `SafeHttp`: SEO, tech stack). */
export function httpWithTargetHeaders(http: SafeHttp, th: TargetHeaders | undefined): SafeHttp {
  if (!th) return http;
  const dispatcher = withTargetHeaders(http.dispatcher, th);
  return {
    policy: http.policy,
    dispatcher,
    fetch: async (url, init = {}) => {
      http.policy.assertUrl(String(url));
      return undiciFetch(url, { ...init, dispatcher });
    },
    close: () => http.close(),
  };
}
