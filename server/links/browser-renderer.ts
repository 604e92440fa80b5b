import type { HTTPResponse, Page } from 'puppeteer-core';
import type { TargetPolicy } from '../net/target-policy.js';
import type { BrowserPool } from '../render/browser-pool.js';
import type { PageRenderer, RenderedPage } from './site-crawler.js';
import type { CheckResult, LinkKind, RedirectHop } from './types.js';

/** Longest single page render, whatever the run's budget. */
const PAGE_CAP_MS = 30_000;

/**
 * Full mode's renderer: each page opened in the shared pool's Chromium (every request
 * through the target-safety proxy), scripts run, then the live DOM is serialised so
 * links inserted by scripts and ids set by scripts count.
 */
export function createBrowserRenderer(pool: BrowserPool, policy: TargetPolicy, concurrency: number): PageRenderer {
  return {
    concurrency,
    render: (url, timeoutMs) =>
      pool.withPage({ policy, timeoutMs: Math.min(timeoutMs, PAGE_CAP_MS) }, async (page) => {
        const navTimeout = Math.max(1000, Math.min(timeoutMs, PAGE_CAP_MS) - 1000);
        const response = await page.goto(url, { waitUntil: 'load', timeout: navTimeout });
        await page.waitForNetworkIdle({ idleTime: 150, timeout: 1500 }).catch(() => undefined); // late script work is optional
        return describe(url, page, response);
      }),
    verify: (url, timeoutMs) =>
      pool.withPage({ policy, timeoutMs }, async (page) => {
        const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: Math.max(1000, timeoutMs - 1000) });
        return response?.status() ?? null;
      }),
  };
}

async function describe(url: string, page: Page, response: HTTPResponse | null): Promise<RenderedPage> {
  const chain: RedirectHop[] = [];
  for (const req of response?.request().redirectChain() ?? []) {
    const r = req.response();
    if (r) chain.push({ url: req.url(), status: r.status(), location: new URL(r.headers().location ?? '', req.url()).href });
  }
  const status = response?.status() ?? null;
  // proxy-chain answers 590-599 for upstream failures; the crawler then fetches the page to learn the real kind.
  if (status !== null && status >= 590) throw new Error(`safety proxy answered ${status}`);
  const finalUrl = page.url();
  const kind: LinkKind = status !== null && status >= 400 ? `http_${status}` : chain.length ? 'redirect' : 'ok';
  const result: CheckResult = { url, status, kind, redirect_chain: chain, final_url: finalUrl };
  const type = response?.headers()['content-type'] ?? '';
  if ((status !== null && status >= 400) || !/html|xml/i.test(type)) return { result };
  const [html, ids] = await Promise.all([
    page.content(),
    page.evaluate(() => [
      ...Array.from(document.querySelectorAll('[id]'), (e) => e.id),
      ...Array.from(document.querySelectorAll('a[name]'), (e) => e.getAttribute('name') ?? ''),
    ]),
  ]);
  return { result, html, anchors: new Set(ids.filter(Boolean)) };
}
