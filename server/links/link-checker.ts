import { probe, ProbeAborted, type ProbeDeps, type ProbeOptions, type ProbeOutcome } from './http-probe.js';
import type { ResultCache } from './result-cache.js';
import type { CheckResult } from './types.js';

export interface LinkCheckerDeps extends ProbeDeps {
  cache?: ResultCache;
}

/**
 * Checks URLs: HEAD first, GET when HEAD is refused, unsupported or fails (many servers
 * answer HEAD with 403/404/405/501 while GET works). Results go through the shared cache.
 * `check` returns null when the run was aborted before an answer: the link is unchecked.
 */
export class LinkChecker {
  constructor(
    private readonly deps: LinkCheckerDeps,
    private readonly opts: ProbeOptions,
  ) {}

  async check(url: string): Promise<CheckResult | null> {
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

  /** GET with the decoded body (HTML and CSS only), for pages and style sheets that are read for links or anchors. */
  async fetchPage(url: string): Promise<ProbeOutcome | null> {
    try {
      const out = await probe(url, { method: 'GET', readBody: true, priority: 'open' }, this.deps, this.opts);
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
