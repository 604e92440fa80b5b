import os from 'node:os';
import type { HTTPRequest, Page } from 'puppeteer-core';
import type { TargetPolicy } from '../net/target-policy.js';
import { pause, timeBound } from '../time-bounds.js';
import type { RenderPages } from '../render/browser-pool.js';
import { openRenderTabs, type RenderJob } from './render-tabs.js';
import type { ResourceSource } from './render-resources.js';
import type { PageRenderer, RenderedPage } from './site-crawler.js';

/** Longest single page render, whatever the run's budget. */
const PAGE_CAP_MS = 30_000;
/** After the DOM is parsed: how long `load` is waited for before the DOM is taken as it is. */
const LOAD_WAIT_MS = 5_000;
/**
 * After `load`: the page counts as settled once no request of its own has been in flight for
 * QUIET_MS (a script's fetch that inserts links is waited for, and one it starts from a
 * timer right after `load` is seen), and at most IDLE_WAIT_MS after `load` in any case.
 */
const QUIET_MS = 50;
const IDLE_WAIT_MS = 1_500;

/**
 * Requests whose answers cannot change the DOM's links or ids: the render pass answers them
 * itself instead of loading them (the crawler checks every one of them over HTTP anyway).
 * Images get a valid 1×1 GIF so `onload`, not `onerror`, handlers run, as for a working image.
 */
const STUBBED: Partial<Record<string, { contentType: string; body: Uint8Array }>> = {
  image: { contentType: 'image/gif', body: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64') },
  media: { contentType: 'application/octet-stream', body: new Uint8Array() },
  font: { contentType: 'font/woff2', body: new Uint8Array() },
};
/**
 * Tabs one crawl renders in at most. A render is Chromium's CPU work, and a tab beyond the
 * cores only adds a renderer process to make (150–250 ms of CPU) and to share them with: on
 * two cores, 11 scripted pages rendered in 1.0 s in 2 tabs and 1.5 s in 4 (bench/README.md).
 */
const TABS_PER_CRAWL = Math.max(1, os.availableParallelism());

/** Requests answered with the crawl's copy (`render-resources.ts`) rather than loaded by each render. */
const SHARED_TYPES = new Set(['script', 'stylesheet']);
/** Above the pool's own `continue` (0), below its refusals (100), which must win. */
const RENDER_PRIORITY = 50;

/**
 * Full mode's renderer: each page opened in the shared pool's Chromium (every request the
 * browser makes goes through the target-safety proxy), scripts run, then the live DOM is
 * serialised so links inserted by scripts and ids set by scripts count. The crawler has
 * fetched the page already: its HTML is handed to the browser rather than fetched again,
 * images, media and fonts are not loaded, and waits are short and bounded (DOM parsed,
 * `load`, then a quiet network). A page that navigates its main frame away (meta refresh,
 * `location.replace`, `location.href =`) reports where to; the browser does not follow.
 * The pages of one crawl share a few tabs (`render-tabs.ts`).
 */
export function createBrowserRenderer(pool: RenderPages, policy: TargetPolicy, maxConcurrency: number): PageRenderer {
  const freeSlots = () => {
    const { capacity, leased } = pool.stats();
    return capacity - leased;
  };
  return {
    // Bot-blocked links' second opinions at once: what the pool has free now, at least one, at most the cap.
    get concurrency() {
      return Math.max(1, Math.min(maxConcurrency, freeSlots()));
    },
    open(resources) {
      const session = openRenderTabs(pool, policy, Math.min(maxConcurrency, TABS_PER_CRAWL), freeSlots, (page, job) => renderPage(page, job, (url) => pool.checkTarget(policy, url), resources));
      return {
        render: (url, timeoutMs, fetched) => session.render(url, Math.min(timeoutMs, PAGE_CAP_MS), fetched),
        close: () => session.close(),
      };
    },
    verify: (url, timeoutMs) =>
      pool.withPage({ policy, timeoutMs }, async (page) => {
        const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: Math.max(1000, timeoutMs - 1000) });
        return response?.status() ?? null;
      }),
  };
}

async function renderPage(
  page: Page,
  { url, budget, fetched }: RenderJob,
  checkTarget: (url: string) => Promise<unknown>,
  resources: ResourceSource | undefined,
): Promise<RenderedPage> {
  const endBy = Date.now() + budget - 1000; // a second left to serialise the DOM
  const left = (cap: number) => Math.max(0, Math.min(cap, endBy - Date.now()));
  const documents: string[] = []; // main-frame document requests, in order; HTTP redirect hops excluded
  const inFlight = new Set<HTTPRequest>(); // the page's own requests that go out (not answered here)
  let lastActivity = Date.now();
  const target = withoutHash(url);
  const onRequest = (req: HTTPRequest) => {
    const mainDocument = req.isNavigationRequest() && req.frame() === page.mainFrame() && req.redirectChain().length === 0;
    // In a reused tab, the last page's document may still start a navigation before ours goes out.
    if (mainDocument && !documents.length && withoutHash(req.url()) !== target) return void req.abort('aborted', RENDER_PRIORITY).catch(() => undefined);
    if (mainDocument) documents.push(req.url());
    if (req.isInterceptResolutionHandled()) return;
    const stub = STUBBED[req.resourceType()];
    if (mainDocument && documents.length === 1 && fetched) {
      void req.respond({ status: 200, contentType: fetched.contentType, body: fetched.html }, RENDER_PRIORITY).catch(() => undefined);
    } else if (mainDocument && documents.length > 1) {
      // Where it goes is all the crawl needs: it fetches that page itself.
      void req.abort('aborted', RENDER_PRIORITY).catch(() => undefined);
    } else if (stub) {
      void req.respond({ status: 200, ...stub }, RENDER_PRIORITY).catch(() => undefined);
    } else if (resources && req.method() === 'GET' && SHARED_TYPES.has(req.resourceType())) {
      // Puppeteer awaits a listener's promise before the request goes out: the crawl's copy, or the network.
      return resources.get(req.url()).then((served) => {
        if (served) return req.respond({ status: served.status, headers: served.headers, body: served.body }, RENDER_PRIORITY).catch(() => undefined);
        inFlight.add(req);
        lastActivity = Date.now();
      });
    } else {
      inFlight.add(req);
      lastActivity = Date.now();
    }
  };
  const onSettled = (req: HTTPRequest) => {
    if (inFlight.delete(req)) lastActivity = Date.now();
  };
  // A tab still showing this URL would only scroll to the fragment: leave it first.
  if (withoutHash(page.url()) === target) await page.goto('about:blank');
  page.on('request', onRequest);
  page.on('requestfinished', onSettled);
  page.on('requestfailed', onSettled);
  try {
    const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: Math.max(1000, left(budget)) }).catch((err: unknown) => {
      if (documents.length > 1) return null; // the page navigated away before its DOM was ready
      if (isTimeout(err) && page.url() !== 'about:blank') return null; // still parsing at the budget's end: take what is there
      throw err;
    });
    if (documents.length <= 1) {
      await timeBound(
        page.evaluate(() => document.readyState === 'complete' || new Promise<boolean>((r) => addEventListener('load', () => r(true), { once: true }))),
        left(LOAD_WAIT_MS),
      ).catch(() => undefined);
      const quietBy = Date.now() + left(IDLE_WAIT_MS);
      while (Date.now() < quietBy && documents.length <= 1 && (inFlight.size > 0 || Date.now() - lastActivity < QUIET_MS)) {
        await pause(Math.min(QUIET_MS, Math.max(1, QUIET_MS - (Date.now() - lastActivity))));
      }
    }
    const navigatedTo = documents.slice(1).find((u) => u !== documents[0]);
    // A refused target fails the render, as when the browser was refused it (the crawl keeps the fetched page).
    if (navigatedTo) return (/^https?:/i.test(navigatedTo) ? checkTarget(navigatedTo) : Promise.resolve()).then(() => ({ navigatedTo }));

    const status = response?.status() ?? null;
    // proxy-chain answers 590-599 for upstream failures; the crawler keeps its fetched HTML then.
    if (status !== null && status >= 590) throw new Error(`safety proxy answered ${status}`);
    const type = response?.headers()['content-type'] ?? 'text/html';
    if ((status !== null && status >= 400) || !/html|xml/i.test(type)) return {};
    const [html, dom] = await Promise.all([
      page.content(),
      page.evaluate(() => ({
        ids: [
          ...Array.from(document.querySelectorAll('[id]'), (e) => e.id),
          ...Array.from(document.querySelectorAll('a[name]'), (e) => e.getAttribute('name') ?? ''),
        ],
        encoding: document.characterSet,
      })),
    ]);
    return { html, anchors: new Set(dom.ids.filter(Boolean)), encoding: dom.encoding.toLowerCase() };
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onSettled);
    page.off('requestfailed', onSettled);
  }
}

const withoutHash = (u: string) => {
  try {
    const parsed = new URL(u);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return u;
  }
};
const isTimeout = (err: unknown) => err instanceof Error && err.name === 'TimeoutError';
