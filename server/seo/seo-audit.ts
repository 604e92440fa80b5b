import { badRequest } from '../api/errors.js';
import type { SafeHttp } from '../net/safe-http.js';
import type { BrowserPool } from '../render/browser-pool.js';
import { fetchPage } from '../techstack/page-fetch.js';
import { runSeoChecks, seoWeights, type SeoCheck, type SeoCheckName, type SeoPage } from './seo-checks.js';

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
  browser?: BrowserPool;
}

export interface SeoReport {
  url: string;
  final_url: string;
  status_code: number;
  score: number;
  checks: Record<SeoCheckName, SeoCheck>;
  recommendations: string[];
  rendered: boolean;
  timestamp: string;
}

/** Text of the weights, shown in the OpenAPI description. */
export const seoRubric = `Score 0-100: the sum of the weights of the checks that pass (${Object.entries(seoWeights)
  .map(([k, w]) => `${k} ${w}`)
  .join(', ')}). Recommendations list one sentence per failed check, heaviest first.`;

/** Fetches (or renders) the page, reads robots.txt and the sitemap, and scores the checks. */
export async function auditSeo(opts: SeoOptions, deps: SeoDeps): Promise<SeoReport> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const page = opts.render && deps.browser ? await renderPage(opts.url, timeoutMs, deps.browser, deps.http) : await fetchForSeo(opts, deps.http);
  const origin = new URL(page.finalUrl).origin;
  const robots = await siteFile(`${origin}/robots.txt`, deps.http);
  const sitemaps = robots.ok ? [...robots.body.matchAll(/^\s*sitemap:\s*(\S+)/gim)].map((m) => m[1]) : [];
  const sitemapUrl = sitemaps[0] ?? `${origin}/sitemap.xml`;
  const sitemap = await siteFile(sitemapUrl, deps.http);
  const full: SeoPage = {
    ...page,
    robotsTxt: { reachable: robots.ok, status: robots.status, sitemaps },
    sitemap: { reachable: sitemap.ok && /<(urlset|sitemapindex)\b/i.test(sitemap.body), url: sitemapUrl, status: sitemap.status },
  };
  const checks = runSeoChecks(full);
  const list = Object.values(checks) as SeoCheck[];
  const score = list.reduce((sum, c) => sum + (c.pass ? c.weight : 0), 0);
  const recommendations = list
    .filter((c) => !c.pass)
    .sort((a, b) => b.weight - a.weight)
    .map((c) => c.recommendation);
  return {
    url: opts.url,
    final_url: page.finalUrl,
    status_code: page.status,
    score,
    checks,
    recommendations,
    rendered: Boolean(opts.render && deps.browser),
    timestamp: new Date().toISOString(),
  };
}

type PagePart = Omit<SeoPage, 'robotsTxt' | 'sitemap'>;

async function fetchForSeo(opts: SeoOptions, http: SafeHttp): Promise<PagePart> {
  const p = await fetchPage({ url: opts.url, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes }, { http });
  const type = p.headers.get('content-type') ?? '';
  if (type && !/html/i.test(type)) {
    throw badRequest(`url must point to an HTML page; it answered Content-Type ${type.split(';')[0]}`);
  }
  return { url: opts.url, finalUrl: p.finalUrl, status: p.status, headers: p.headers, html: p.body, bytes: p.bytes };
}

/** Loads the page in Chromium (through the pool and its safety proxy) and takes the DOM after scripts ran. */
async function renderPage(url: string, timeoutMs: number, browser: BrowserPool, http: SafeHttp): Promise<PagePart> {
  return browser.withPage({ policy: http.policy, timeoutMs: timeoutMs + 5_000 }, async (page) => {
    const response = await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    // Single-page apps keep working after `load`; give their requests a moment to settle.
    await page.waitForNetworkIdle({ idleTime: 300, timeout: 3_000 }).catch(() => undefined);
    const html = await page.content();
    const headers = new Headers();
    for (const [k, v] of Object.entries(response?.headers() ?? {})) headers.set(k, v);
    return {
      url,
      finalUrl: page.url(),
      status: response?.status() ?? 0,
      headers,
      html,
      bytes: Buffer.byteLength(html),
    };
  });
}

async function siteFile(url: string, http: SafeHttp): Promise<{ ok: boolean; status: number | null; body: string }> {
  try {
    const p = await fetchPage({ url, timeoutMs: 5_000, maxBytes: 512 * 1024 }, { http });
    return { ok: p.status === 200, status: p.status, body: p.status === 200 ? p.body : '' };
  } catch {
    return { ok: false, status: null, body: '' }; // unreachable counts as missing; the page itself loaded
  }
}
