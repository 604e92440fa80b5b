import type { ProbeOutcome } from './http-probe.js';

/** A script or style sheet as a render is served it. */
export interface ServedResource {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Where a crawl's renders take their scripts and style sheets from (null: the browser loads it itself). */
export interface ResourceSource {
  get(url: string): Promise<ServedResource | null>;
}

/** Most bytes of scripts and style sheets one crawl keeps for its renders; past it the browser loads them itself. */
const MAX_BYTES = 32 * 1024 * 1024;

/** Headers a served answer keeps: what the browser decides with (type, CORS, caching is moot), never the transfer's own. */
const KEPT = /^(content-type|access-control-|timing-allow-origin|cross-origin-|x-content-type-options|content-security-policy|link$)/i;

/**
 * The scripts and style sheets the renders of one crawl ask for, each fetched once by the
 * crawl's own HTTP client (the same target checks, the same per-host pacing) and served from
 * memory to every render that asks: the pages of a site share their scripts, and without this
 * every render waits a round trip for each of them again (request interception leaves no
 * browser cache to help, and many sites send no caching headers). A page's resources are
 * fetched as soon as its HTML is read (`prefetch`), while its tab is still being made ready.
 */
export class RenderResources implements ResourceSource {
  private readonly memo = new Map<string, Promise<ServedResource | null>>();
  private bytes = 0;

  constructor(private readonly fetchBytes: (url: string) => Promise<ProbeOutcome | null>) {}

  get(url: string): Promise<ServedResource | null> {
    const key = withoutHash(url);
    if (!key) return Promise.resolve(null);
    let served = this.memo.get(key);
    if (!served) {
      if (this.bytes >= MAX_BYTES) return Promise.resolve(null);
      served = this.load(key);
      this.memo.set(key, served);
    }
    return served;
  }

  /** Starts fetching `urls` for renders to come. */
  prefetch(urls: Iterable<string>): void {
    for (const url of urls) void this.get(url);
  }

  private async load(url: string): Promise<ServedResource | null> {
    const out = await this.fetchBytes(url).catch(() => null);
    // Redirected, failed or too large: the browser asks the network itself, as it would have.
    if (!out?.bytes || !out.headers || out.result.redirect_chain.length || out.result.status === null) return null;
    this.bytes += out.bytes.length;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(out.headers)) if (value !== undefined && KEPT.test(name)) headers[name] = value;
    return { status: out.result.status, headers, body: out.bytes };
  }
}

const withoutHash = (u: string): string | undefined => {
  try {
    const url = new URL(u);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
};
