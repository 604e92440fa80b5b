import tls from 'node:tls';
import { Agent, fetch as undiciFetch, type Dispatcher, type RequestInit, type Response } from 'undici';
import { BlockedTargetError, type TargetPolicy } from './target-policy.js';
import { chromiumCode } from './tls-failure.js';

export interface SafeHttpOptions {
  policy: TargetPolicy;
  /**
   * Connections kept per origin: at least the link checker's per-host limit, or requests past
   * it wait in the connection pool, first come first served, whatever their priority. @default 64
   */
  connections?: number;
  /** Connect timeout in ms. @default 10000 */
  connectTimeoutMs?: number;
  /** CA certificates to trust instead of Node's bundle (e.g. plus the system store and TLS_EXTRA_CA_FILE). */
  ca?: readonly string[];
}

/**
 * The outbound HTTP client every domain uses for pages, links and webhooks.
 * Names are checked on the address they resolve to at connect time (the socket goes
 * to the checked IP, so DNS rebinding cannot slip through); IP literals, which Node
 * connects to without a lookup, are checked on every dispatch, redirects included.
 */
export interface SafeHttp {
  readonly policy: TargetPolicy;
  readonly dispatcher: Dispatcher;
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export function createSafeHttp({ policy, connections = 64, connectTimeoutMs = 10_000, ca }: SafeHttpOptions): SafeHttp {
  // One context for every connection: parsing a few hundred CAs per handshake costs ~20 ms.
  const secureContext = ca ? tls.createSecureContext({ ca: [...ca] }) : undefined;
  const agent = new Agent({
    connections,
    keepAliveTimeout: 10_000,
    connect: { lookup: policy.lookup, timeout: connectTimeoutMs, ...(secureContext ? { secureContext } : {}) },
  });
  const dispatcher = agent.compose((dispatch) => (opts, handler) => {
    try {
      policy.assertUrl(new URL(String(opts.path ?? '/'), String(opts.origin)));
    } catch (err) {
      const error = err instanceof BlockedTargetError ? err : new BlockedTargetError(String(err));
      queueMicrotask(() => handler.onResponseError?.({} as never, error));
      return true;
    }
    return dispatch(opts, handler);
  });
  return {
    policy,
    dispatcher,
    fetch: async (url, init = {}) => {
      policy.assertUrl(String(url));
      return undiciFetch(url, { ...init, dispatcher });
    },
    close: () => agent.close(),
  };
}

/**
 * The innermost cause of a failed request as a stable kind, so callers report
 * `refused` or `dns` instead of "fetch failed".
 */
export type NetErrorKind = 'blocked_target' | 'dns' | 'refused' | 'reset' | 'timeout' | 'tls' | 'network';

export function netErrorKind(err: unknown): NetErrorKind {
  const codes = errorCodes(err);
  const has = (...c: string[]) => codes.some((x) => c.includes(x));
  if (has('blocked_target', 'BlockedTargetError', 'TargetRefusedError')) return 'blocked_target';
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ERR_NAME_NOT_RESOLVED')) return 'dns';
  if (has('ECONNREFUSED', 'ERR_CONNECTION_REFUSED')) return 'refused';
  if (has('ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ERR_CONNECTION_RESET', 'ERR_CONNECTION_CLOSED', 'ERR_EMPTY_RESPONSE')) return 'reset';
  if (has('ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'TimeoutError', 'AbortError', 'ERR_TIMED_OUT', 'ERR_CONNECTION_TIMED_OUT'))
    return 'timeout';
  if (codes.some((c) => /CERT|SSL|TLS|ERR_TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH|ERR_SSL/.test(c))) return 'tls';
  return 'network';
}

/**
 * Every code along an error's cause chain: Node's (`ECONNREFUSED`, `CERT_HAS_EXPIRED`), undici's,
 * error names, and Chromium's `net::ERR_*` from a navigation's message.
 */
export function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 6; depth++) {
    const o = e as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof o.code === 'string') codes.push(o.code);
    if (typeof o.name === 'string') codes.push(o.name);
    const chromium = typeof o.message === 'string' ? chromiumCode(o.message) : undefined;
    if (chromium) codes.push(chromium);
    if (Array.isArray(o.errors)) for (const inner of o.errors) codes.push(String((inner as { code?: unknown }).code));
    e = o.cause;
  }
  return codes;
}

/** The innermost error message, for reports; Node's advice about its own command line is left out. */
export function innermostMessage(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  let msg = e?.message ?? String(err);
  for (let depth = 0; e?.cause && depth < 6; depth++) {
    e = e.cause as { message?: string; cause?: unknown };
    if (e?.message) msg = e.message;
  }
  return msg.replace(/; if the root CA is installed locally, try running Node\.js with --use-system-ca$/, '');
}
