import type { SafeHttp } from '../net/safe-http.js';

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
  const res = await deps.http.fetch(url, {
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
    setCookies: res.headers.getSetCookie(),
    body: decode(buf, res.headers.get('content-type')),
    bytes,
    truncated,
    redirected: res.redirected,
  };
}

function decode(buf: Buffer, contentType: string | null): string {
  const label = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(buf);
  } catch {
    return buf.toString('utf8'); // unknown charset label: UTF-8 is the web's default
  }
}
