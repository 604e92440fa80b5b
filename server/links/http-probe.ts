import { request, type Dispatcher } from 'undici';
import { BlockedTargetError } from '../net/target-policy.js';
import { innermostMessage, netErrorKind } from '../net/safe-http.js';
import { targetFailure } from '../errors/index.js';
import { pause } from '../time-bounds.js';
import { retryAfterMs } from '../net/retry-after.js';
import { bodyType, decodeBody } from './decode-body.js';
import type { GatePriority, HostGate } from './host-gate.js';
import type { CheckResult, LinkKind, RedirectHop } from './types.js';

export interface ProbeDeps {
  dispatcher: Dispatcher;
  /** Throws BlockedTargetError for refused URLs (scheme or IP literal). */
  assertUrl(url: string): URL;
  gate: HostGate;
}

export interface ProbeOptions {
  /** Per-request timeout (headers and body), in ms. */
  timeoutMs: number;
  /** Aborts everything when the run's time budget is spent. */
  signal?: AbortSignal;
  /** @default 10 */
  maxRedirects?: number;
  /** Largest body read when `readBody` is set. @default 5 MiB */
  maxBodyBytes?: number;
  userAgent?: string;
  /** Epoch ms when the run ends; waits for Retry-After never reach past it. */
  deadline?: number;
}

export interface ProbeOutcome {
  result: CheckResult;
  contentType?: string;
  /** The `Refresh` header, which sends a browser on like a meta refresh. */
  refresh?: string;
  /** The decoded body of an HTML or CSS response, when it was asked for. */
  body?: string;
  bodyType?: 'html' | 'css';
  /** The encoding the body was decoded with (canonical name, lower case). */
  encoding?: string;
  /** The whole body as it came (`body: 'bytes'`, successful answers within the size limit). */
  bytes?: Buffer;
  /** The last answer's headers, with `bytes`. */
  headers?: Record<string, string | undefined>;
}

export interface ProbeRequest {
  method: 'HEAD' | 'GET';
  /** `text`: decode and return an HTML or CSS body; `bytes`: return any successful body as it came, with its headers. */
  body?: 'text' | 'bytes';
  /** `open` when the answer opens more work (a page to crawl): it goes before link checks. @default check */
  priority?: GatePriority;
}

/** Thrown when the run's signal aborted the probe: the link was not checked. */
export class ProbeAborted extends Error {}

const DEFAULT_UA = 'Mozilla/5.0 (compatible; SiteLensLinkChecker/2.5; +https://github.com/sitelens)';
const MAX_RATE_RETRIES = 2;
const MAX_RATE_WAIT_MS = 30_000;

/**
 * Requests `url` following redirects hop by hop (each hop checked against the target
 * policy by the dispatcher), honouring 429/503 `Retry-After` per host, retrying once on a
 * reset connection. Never throws for link failures: they are results.
 */
export async function probe(url: string, request: ProbeRequest, deps: ProbeDeps, opts: ProbeOptions): Promise<ProbeOutcome> {
  const { method, body, priority = 'check' } = request;
  const maxRedirects = opts.maxRedirects ?? 10;
  const chain: RedirectHop[] = [];
  const seen = new Set<string>([url]);
  let current = url;
  let verb = method;
  let rateRetries = 0;
  let netRetries = 0;
  const done = (status: number | null, kind: LinkKind, extra: Partial<CheckResult> = {}): ProbeOutcome => ({
    result: { url, status, kind, redirect_chain: chain, final_url: current, ...extra },
  });

  for (;;) {
    if (opts.signal?.aborted) throw new ProbeAborted();
    let target: URL;
    try {
      target = deps.assertUrl(current);
    } catch (err) {
      if (err instanceof BlockedTargetError) return done(null, 'blocked_target', { error: err.message });
      return done(null, 'invalid_url', { error: innermostMessage(err) });
    }
    const host = target.host;
    let hop: HopResponse;
    let sentAt = performance.now();
    try {
      hop = await deps.gate.run(
        host,
        () => {
          sentAt = performance.now();
          return sendOnce(target, verb, body, deps.dispatcher, opts);
        },
        priority,
      );
    } catch (err) {
      if (opts.signal?.aborted) throw new ProbeAborted();
      const kind = netErrorKind(err);
      if (kind === 'timeout' || kind === 'reset') deps.gate.answered(host, { kind: 'failed', sentAt });
      if ((kind === 'reset' || kind === 'network') && netRetries < 1) {
        netRetries++;
        await pause(50 + Math.random() * 100);
        continue;
      }
      return done(null, kind, { error: targetFailure(err, kind) }); // in the words every check uses
    }

    const { status, headers } = hop;
    const location = headers.location;
    if (status >= 300 && status < 400 && location) {
      let next: string;
      try {
        next = new URL(location, current).href;
      } catch {
        return done(status, 'invalid_url', { error: `redirect to an invalid location: ${location}` });
      }
      chain.push({ url: current, status, location: next });
      if (seen.has(next)) return done(status, 'redirect_loop', { final_url: next });
      if (chain.length > maxRedirects) return done(status, 'too_many_redirects', { final_url: next });
      seen.add(next);
      current = next;
      if (status === 303) verb = 'GET';
      continue;
    }

    if (isBotBlocked(status, headers)) return done(status, 'bot_blocked');

    if (status === 429 || (status === 503 && headers['retry-after'])) {
      const waitMs = retryAfterMs(headers['retry-after']) ?? 1000 * 2 ** rateRetries;
      const budget = Math.min(MAX_RATE_WAIT_MS, (opts.deadline ?? Infinity) - Date.now() - 500);
      deps.gate.backoff(host, waitMs, sentAt);
      if (rateRetries < MAX_RATE_RETRIES && waitMs <= budget) {
        rateRetries++;
        await pause(waitMs, opts.signal);
        continue;
      }
      return done(status, status === 429 ? 'rate_limited' : 'http_503');
    }
    deps.gate.answered(host, { kind: 'answered', ms: performance.now() - sentAt, sentAt });

    const kind: LinkKind = status >= 400 ? `http_${status}` : chain.length ? 'redirect' : 'ok';
    const raw = hop.bytes ? { bytes: hop.bytes, headers } : {};
    return { ...done(status, kind), contentType: headers['content-type'], refresh: headers['refresh'], ...hop.decoded, ...raw };
  }
}

interface HopResponse {
  status: number;
  headers: Record<string, string | undefined>;
  decoded?: { body: string; bodyType: 'html' | 'css'; encoding: string };
  bytes?: Buffer;
}

async function sendOnce(url: URL, method: 'HEAD' | 'GET', read: ProbeRequest['body'], dispatcher: Dispatcher, opts: ProbeOptions): Promise<HopResponse> {
  const res = await request(url, {
    method,
    dispatcher,
    headers: {
      'user-agent': opts.userAgent ?? DEFAULT_UA,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-language': 'en',
    },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    signal: opts.signal,
    // undici closes the connection after every HEAD (nodejs/undici#258: servers that send
    // a body anyway); keep it alive, at the price of one retried request on such a server.
    reset: false,
  });
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const isRedirect = res.statusCode >= 300 && res.statusCode < 400;
  const type = bodyType(headers['content-type']);
  const max = opts.maxBodyBytes ?? 5 * 1024 * 1024;
  const readable = method === 'GET' && !isRedirect && res.statusCode < 400;
  if (read === 'text' && readable && type) {
    const bytes = await readLimited(res.body, max);
    const { text, encoding } = decodeBody(bytes, headers['content-type'], type);
    return { status: res.statusCode, headers, decoded: { body: text, bodyType: type, encoding } };
  }
  if (read === 'bytes' && readable) {
    const bytes = await readLimited(res.body, max);
    return { status: res.statusCode, headers, bytes: bytes.length < max ? bytes : undefined }; // a cut body is no body
  }
  // Read a little so the connection can be reused; dump() destroys it past the limit.
  await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
  return { status: res.statusCode, headers };
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks);
}

/**
 * Bot protection answers (Cloudflare challenges, LinkedIn's 999, DataDome, AWS WAF
 * captchas): the page probably works in a browser, so this is not "broken".
 */
export function isBotBlocked(status: number, headers: Record<string, string | undefined>): boolean {
  if (status === 999) return true;
  if (status !== 403 && status !== 429 && status !== 503) return false;
  if (headers['cf-mitigated']) return true;
  if (headers['x-datadome'] || /datadome/i.test(headers.server ?? '')) return true;
  if (/captcha|challenge/i.test(headers['x-amzn-waf-action'] ?? '')) return true;
  return false;
}


