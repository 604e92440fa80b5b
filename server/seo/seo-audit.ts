import * as cheerio from 'cheerio';
import { targetError } from '../errors/index.js';
import type { SafeHttp } from '../net/safe-http.js';
import type { RenderPages } from '../render/browser-pool.js';
import { fetchPage } from '../techstack/page-fetch.js';
import type { SeoCheck } from './check-result.js';
import { gatherArtifacts } from './page-artifacts.js';
import { fetchSnapshot, renderSnapshot } from './page-snapshot.js';
import { fetchRobotsTxt, robotsSitemaps } from './robots-txt.js';
import { LIGHTHOUSE_VERSION, runSeoChecks, seoCheckSpecs, type SeoCheckName } from './seo-checks.js';

export interface SeoOptions {
  url: string;
  /** Audit the DOM after Chromium ran the page's scripts. @default false */
  render?: boolean;
  /** @default 15000 */
  timeoutMs?: number;
  /** @default 5242880 */
  maxBytes?: number;
}

export interface SeoDeps {
  http: SafeHttp;
  browser?: RenderPages;
}

export interface SeoReport {
  url: string;
  final_url: string;
  status_code: number;
  score: number;
  checks: Record<SeoCheckName, SeoCheck>;
  recommendations: string[];
  rendered: boolean;
  /** The Lighthouse release whose audit rules the `lighthouse` checks apply. */
  lighthouse_version: string;
  /** Things that could not be read (a `Link` header that does not parse). */
  warnings: string[];
  timestamp: string;
}

/** Text of the weights, shown in the OpenAPI description. */
export const seoRubric = `Score 0-100: the sum of the weights of the checks that pass (${Object.entries(seoCheckSpecs)
  .map(([k, s]) => `${k} ${s.weight}`)
  .join(', ')}); a check with nothing to look at (applicable false) passes. Checks with source "lighthouse" apply the rules of the Lighthouse ${LIGHTHOUSE_VERSION} SEO audit named in lighthouse_audit; the others are SiteLens's own. Recommendations list one sentence per failed check, heaviest first.`;

/** Fetches (or renders) the page, reads robots.txt and the sitemap, and scores the checks; a page out of reach throws its target error. */
export async function auditSeo(opts: SeoOptions, deps: SeoDeps): Promise<SeoReport> {
  const load = { url: opts.url, timeoutMs: opts.timeoutMs ?? 15_000, maxBytes: opts.maxBytes };
  const rendered = Boolean(opts.render && deps.browser);
  const snapshot = await (opts.render && deps.browser ? renderSnapshot(load, deps.browser, deps.http) : fetchSnapshot(load, deps.http)).catch((err: unknown) => {
    throw targetError(err, new URL(opts.url).host);
  });
  const robots = await fetchRobotsTxt(snapshot.finalUrl, deps.http);
  const sitemaps = robotsSitemaps(robots);
  const sitemapUrl = sitemaps[0] ?? new URL('/sitemap.xml', snapshot.finalUrl).href;
  const sitemap = await siteFile(sitemapUrl, deps.http);
  const $ = cheerio.load(snapshot.html);
  const artifacts = gatherArtifacts(snapshot, $);
  const checks = runSeoChecks({
    $,
    artifacts,
    robots,
    sitemaps,
    sitemap: { reachable: sitemap.ok && /<(urlset|sitemapindex)\b/i.test(sitemap.body), url: sitemapUrl, status: sitemap.status },
    bytes: snapshot.bytes,
    truncated: snapshot.truncated ?? false,
  });
  const list = Object.values(checks);
  return {
    url: opts.url,
    final_url: snapshot.finalUrl,
    status_code: snapshot.status,
    score: list.reduce((sum, c) => sum + (c.pass ? c.weight : 0), 0),
    checks,
    recommendations: list.filter((c) => !c.pass).sort((a, b) => b.weight - a.weight).map((c) => c.recommendation),
    rendered,
    lighthouse_version: LIGHTHOUSE_VERSION,
    warnings: artifacts.warnings,
    timestamp: new Date().toISOString(),
  };
}

async function siteFile(url: string, http: SafeHttp): Promise<{ ok: boolean; status: number | null; body: string }> {
  try {
    const p = await fetchPage({ url, timeoutMs: 5_000, maxBytes: 512 * 1024 }, { http });
    return { ok: p.status === 200, status: p.status, body: p.status === 200 ? p.body : '' };
  } catch {
    return { ok: false, status: null, body: '' }; // unreachable counts as missing; the page itself loaded
  }
}
