import { probe, ProbeAborted, type ProbeDeps, type ProbeOptions, type ProbeOutcome } from './http-probe.js';
import type { LinkResultCache } from './result-cache.js';
import type { CheckResult } from './types.js';

export interface LinkCheckerDeps extends ProbeDeps {
  cache?: LinkResultCache;
}

/**
 * Checks URLs: HEAD first, GET when HEAD is refused, unsupported or fails (many servers
 * answer HEAD with 403/404/405/501 while GET works). Results go through the shared cache.
 * `check` returns null when the run was aborted before an answer: the link is unchecked.
 */
export class LinkChecker {
  /** Work started ahead of being asked for (`ahead`), taken by the next call for the same URL. */
  private readonly early = { check: new Map<string, Promise<CheckResult | null>>(), page: new Map<string, Promise<ProbeOutcome | null>>() };

  constructor(
    private readonly deps: LinkCheckerDeps,
    private readonly opts: ProbeOptions,
  ) {}

  /**
   * Starts `check(url)` (or `fetchPage(url)`, for a style sheet to read) before the run knows it
   * needs it: the crawl does this for the links of a page that is still rendering. The next call
   * for the URL takes the answer; a link the render then drops costs only this request.
   */
  ahead(url: string, what: 'check' | 'page'): void {
    if (what === 'check' && !this.early.check.has(url)) this.early.check.set(url, this.checkNow(url).catch(() => null));
    if (what === 'page' && !this.early.page.has(url)) this.early.page.set(url, this.fetchPageNow(url).catch(() => null));
  }

  check(url: string): Promise<CheckResult | null> {
    return this.take(this.early.check, url) ?? this.checkNow(url);
  }

  /** GET with the decoded body (HTML and CSS only), for pages and style sheets that are read for links or anchors. */
  fetchPage(url: string): Promise<ProbeOutcome | null> {
    return this.take(this.early.page, url) ?? this.fetchPageNow(url);
  }

  private take<T>(early: Map<string, Promise<T>>, url: string): Promise<T> | undefined {
    const started = early.get(url);
    early.delete(url);
    return started;
  }

  private async checkNow(url: string): Promise<CheckResult | null> {
    const hit = await this.deps.cache?.get(url);
    if (hit) return hit;
    try {
      let out = await probe(url, { method: 'HEAD' }, this.deps, this.opts);
      if (needsGet(out)) out = await probe(url, { method: 'GET' }, this.deps, this.opts);
      await this.deps.cache?.set(out.result);
      return out.result;
    } catch (err) {
      if (err instanceof ProbeAborted) return null;
      throw err;
    }
  }

  /** GET with the body as it came and its headers (`bytes`, `headers`), for what a render asks for; null when aborted. */
  async fetchBytes(url: string): Promise<ProbeOutcome | null> {
    try {
      return await probe(url, { method: 'GET', body: 'bytes', priority: 'open' }, this.deps, this.opts);
    } catch (err) {
      if (err instanceof ProbeAborted) return null;
      throw err;
    }
  }

  private async fetchPageNow(url: string): Promise<ProbeOutcome | null> {
    try {
      const out = await probe(url, { method: 'GET', body: 'text', priority: 'open' }, this.deps, this.opts);
      await this.deps.cache?.set(out.result);
      return out;
    } catch (err) {
      if (err instanceof ProbeAborted) return null;
      throw err;
    }
  }
}

function needsGet({ result }: ProbeOutcome): boolean {
  if (result.kind === 'reset' || result.kind === 'network') return true;
  return result.status !== null && result.status >= 400 && result.kind !== 'bot_blocked' && result.kind !== 'rate_limited';
}
