import { fetch as undiciFetch, type Dispatcher } from 'undici';
import type { SafeHttp } from '../net/safe-http.js';
import { headerLines } from './page-signals.js';

export interface PageFetchOptions {
  url: string;
  /** Body bytes read at most; the rest is dropped and `truncated` set. @default 5242880 */
  maxBytes?: number;
  /** @default 15000 */
  timeoutMs?: number;
  /** @default 'follow' */
  redirect?: 'follow' | 'manual';
  /** @default browser-like */
  userAgent?: string;
}

export interface FetchedPage {
  url: string;
  finalUrl: string;
  status: number;
  headers: Headers;
  /**
   * The final response's header lines by lowercased name, a repeated header as several
   * values (`headers` joins them with commas, as fetch must).
   */
  headerLines: Record<string, string[]>;
  /** `Set-Cookie` lines of the final response. */
  setCookies: string[];
  body: string;
  bytes: number;
  truncated: boolean;
  redirected: boolean;
}

export const ANALYSIS_USER_AGENT = 'Mozilla/5.0 (compatible; SiteLens/3.0; +https://github.com/sitelens) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';

/**
 * Fetches one page through the target-safety client (every redirect hop checked) and
 * reads at most `maxBytes` of its body as text. Network failures throw; an HTTP error
 * status is a result.
 */
export async function fetchPage(opts: PageFetchOptions, deps: { http: SafeHttp }): Promise<FetchedPage> {
  const { url, maxBytes = 5 * 1024 * 1024, timeoutMs = 15_000 } = opts;
  let raw: Record<string, string | string[] | undefined> = {};
  // The safe client's own dispatcher (every hop checked, the checked address connected),
  // with a look at each response's header lines before fetch joins repeated ones.
  deps.http.policy.assertUrl(url);
  const res = await undiciFetch(url, {
    dispatcher: deps.http.dispatcher.compose(onResponseHeaders((headers) => (raw = headers))),
    redirect: opts.redirect ?? 'follow',
    signal: AbortSignal.timeout(timeoutMs),
    headers: {
      'user-agent': opts.userAgent ?? ANALYSIS_USER_AGENT,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-language': 'en',
    },
  });
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      chunks.push(value);
      if (bytes >= maxBytes) {
        truncated = true;
        await reader.cancel().catch(() => undefined); // the page is big enough; stop the transfer
        break;
      }
    }
  }
  const buf = Buffer.concat(chunks).subarray(0, maxBytes);
  return {
    url,
    finalUrl: res.url || url,
    status: res.status,
    headers: res.headers as unknown as Headers,
    headerLines: headerLines(raw),
    setCookies: res.headers.getSetCookie(),
    body: decode(buf, res.headers.get('content-type')),
    bytes,
    truncated,
    redirected: res.redirected,
  };
}

/** Calls `seen` with the parsed headers of every final (non-1xx) response, redirects included. */
function onResponseHeaders(seen: (headers: Record<string, string | string[] | undefined>) => void): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(
      opts,
      new Proxy(handler, {
        get(target, prop, receiver) {
          if (prop !== 'onResponseStart' || !target.onResponseStart) return Reflect.get(target, prop, receiver);
          return (...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>) => {
            if (args[1] >= 200) seen(args[2] as Record<string, string | string[] | undefined>);
            return target.onResponseStart?.(...args);
          };
        },
      }),
    );
}

function decode(buf: Buffer, contentType: string | null): string {
  const label = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(buf);
  } catch {
    return buf.toString('utf8'); // unknown charset label: UTF-8 is the web's default
  }
}
