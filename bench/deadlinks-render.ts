/**
 * Full mode's crawl against the field, at two network latencies, on one generated 50-page
 * site (style sheet, web font and images on every page; every 5th page a script inserting two
 * links and setting an id another page links to). Each response waits a delay fixed per path,
 * spread over the latency's range (5–20 ms: a nearby host; 60–120 ms: a host across an ocean,
 * a CDN miss, what a CI runner sees). At each latency, one after another in this process:
 *
 * - this service's crawl without the browser (`render=false`) and with it (`render=true`, the
 *   default), pool already running, as in the service;
 * - linkinator 8 (library, no rendering) at the bench's concurrency (16) and at its default (100);
 * - Crawlee's PuppeteerCrawler (same Chromium, every page rendered, links read from the DOM
 *   after scripts ran; it launches its browser per crawl, as it is used);
 * - the browser floor: the product's own browser work alone, the 11 pages with scripts
 *   rendered by the product's renderer (same pool, flags, interception and tabs), their HTML,
 *   scripts and style sheets already in memory, nothing crawled, fetched or checked; and the
 *   same work with a fresh browsing context per page, and with one tab (one context) for all.
 *
 * Prints the rows with the load they ran under, every ratio, and whether the rendered findings
 * equal the plain ones plus what scripts insert.
 *
 *   node --import tsx bench/deadlinks-render.ts [--runs 5] [--crawlee-runs 3] [--latency 5-20,60-120] [--tabs 4] [--only-ours]
 */
import os from 'node:os';
import { LinkChecker as Linkinator } from 'linkinator';
import puppeteer from 'puppeteer-core';
import { crawleeCrawl, crawleeInstalled } from './support/crawlee-peer.js';
import { flag, hasFlag, load, numberFlag, startLinkSite, timed, type Timed } from './support/bench-kit.js';
import { createBrowserRenderer } from '../server/links/browser-renderer.js';
import type { ResourceSource, ServedResource } from '../server/links/render-resources.js';
import type { DeadLinkReport } from '../server/links/report.js';
import { checkSite, linkNet } from '../server/links/site-check.js';
import type { FetchedPage, PageRenderer } from '../server/links/site-crawler.js';
import { createSafeHttp } from '../server/net/safe-http.js';
import { createTargetPolicy } from '../server/net/target-policy.js';
import { createBrowserPool, internalRenderOwner } from '../server/render/browser-pool.js';

const PAGES = 50;
const SCRIPT_EVERY = 5;
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** The bench's concurrency for every peer that takes one (linkinator's default is 100). */
const PEER_CONCURRENCY = 16;
/** This service's defaults (LINK_CONCURRENCY, LINK_HOST_CONCURRENCY). */
const OUR_CONCURRENCY = 64;
const OUR_HOST_CONCURRENCY = 64;
/** The latencies the goals are set at. */
const NEAR = '5-20';
const FAR = '60-120';

/** What a crawl found: broken URLs (with the pages they are on), links checked, fragments missing. */
interface Findings {
  pages: number;
  broken: Set<string>;
  checked: number;
  missingFragments: Set<string>;
}

const findingsOf = (r: DeadLinkReport): Findings => ({
  pages: r.pages_crawled,
  broken: new Set(r.broken_links.map((i) => `${i.url} on ${[...(i.found_on ?? [])].sort().join(' ')}`)),
  checked: r.total_links_checked,
  missingFragments: new Set(r.warnings.filter((w) => w.kind === 'missing_fragment').map((w) => w.url)),
});

export async function run() {
  const runs = numberFlag('runs', 5);
  const tabs = numberFlag('tabs', 4); // the service's default BROWSER_CONCURRENCY
  const net = createSafeHttp({ policy: createTargetPolicy('true'), connections: OUR_HOST_CONCURRENCY });
  const pool = createBrowserPool({ chromePath: CHROME, concurrency: tabs, queue: 64, recycleAfter: 10_000, timeoutMs: 60_000 });
  const renderer = createBrowserRenderer(pool.as(internalRenderOwner), net.policy, tabs);
  const oneTab = createBrowserRenderer(pool.as(internalRenderOwner), net.policy, 1);
  try {
    for (const latency of flag('latency', `${NEAR},${FAR}`).split(',')) await atLatency(latency, runs, tabs, { net, renderer, oneTab });
  } finally {
    await pool.close();
    await net.close();
  }
}

async function atLatency(latency: string, runs: number, tabs: number, parts: { net: ReturnType<typeof createSafeHttp>; renderer: PageRenderer; oneTab: PageRenderer }) {
  const site = await startLinkSite({ LATENCY_MS: latency, PAGES: String(PAGES), IMAGES: '40', ASSETS: '1', SCRIPT_EVERY: String(SCRIPT_EVERY) });
  const start = `${site.url}/`;
  const ours = (render: boolean) =>
    checkSite(
      { url: start, mode: 'full', maxPages: Infinity, maxDurationMs: 300_000, render, fragments: 'warn', gate: {} },
      { ...linkNet(parts.net), timeoutMs: 15_000, concurrency: OUR_CONCURRENCY, hostConcurrency: OUR_HOST_CONCURRENCY, renderer: parts.renderer },
    );
  const linkinator = (concurrency?: number) => () => new Linkinator().check({ path: start, recurse: true, concurrency, timeout: 15_000, checkCss: true });
  try {
    console.log(`\n## ${latency} ms per response (fixed per path); median of ${runs} runs; load ${load()} at the start\n`);
    await ours(true); // warm up: the service's pool and code are warm when a request arrives
    const plain = await timed(runs, () => ours(false));
    const rendered = await timed(runs, () => ours(true));
    if (hasFlag('only-ours')) return void console.log({ plain: plain.all, rendered: rendered.all });
    const lk16 = await timed(runs, linkinator(PEER_CONCURRENCY));
    const lkDefault = await timed(runs, linkinator(undefined));
    // Installed by bench/support/install-peers.sh (`./run bench`); without it the row is left out.
    const crawlee = crawleeInstalled() && !hasFlag('skip-crawlee') ? await timed(numberFlag('crawlee-runs', 3), () => crawleeCrawl(start, CHROME, puppeteer)) : undefined;
    if (!crawlee) console.log('Crawlee is not installed (bench/support/install-peers.sh) or skipped: its row is left out.\n');

    const scripted = [start, ...Array.from({ length: Math.ceil(PAGES / SCRIPT_EVERY) }, (_, k) => `${site.url}/p/${k * SCRIPT_EVERY}`)];
    const memory = await inMemory(scripted, [`${site.url}/css/site.css`, `${site.url}/js/insert.js`]);
    const floor = await timed(runs, () => renderAll(parts.renderer, memory, 'shared tabs'));
    const perPage = await timed(runs, () => renderAll(parts.renderer, memory, 'context per page', tabs));
    const oneContext = await timed(runs, () => renderAll(parts.oneTab, memory, 'shared tabs'));

    const row = (tool: string, t: Timed<unknown>, pages: string | number, renderedPages: string | number, checked: string | number, broken: string | number) =>
      console.log(`| ${tool} | ${pages} | ${renderedPages} | ${checked} | ${broken} | ${t.seconds.toFixed(2)} | ${t.all.map((s) => s.toFixed(2)).join(' ')} | ${t.load} |`);
    const p = findingsOf(plain.last);
    const r = findingsOf(rendered.last);
    const linkinatorRow = (t: Timed<Awaited<ReturnType<ReturnType<typeof linkinator>>>>) => {
      const lk = t.last.links;
      const pagesFound = new Set(lk.filter((l) => l.url.startsWith(`${site.url}/p/`) || l.url === start).map((l) => l.url)).size;
      return [pagesFound, 0, new Set(lk.map((l) => l.url)).size, new Set(lk.filter((l) => l.state === 'BROKEN').map((l) => l.url)).size] as const;
    };
    console.log('| tool | pages | rendered | links checked | broken | median (s) | runs (s) | load |');
    console.log('|---|---:|---:|---:|---:|---:|---|---|');
    row('this service, `render=false`', plain, p.pages, 0, p.checked, p.broken.size);
    row('this service, `render=true` (default)', rendered, r.pages, rendered.last.summary.rendered_pages, r.checked, r.broken.size);
    row(`linkinator 8, concurrency ${PEER_CONCURRENCY}`, lk16, ...linkinatorRow(lk16));
    row('linkinator 8, its default concurrency (100)', lkDefault, ...linkinatorRow(lkDefault));
    if (crawlee) row('Crawlee 3 `PuppeteerCrawler` (links read after render)', crawlee, crawlee.last.pages, crawlee.last.pages, crawlee.last.links, '–');
    const n = scripted.length;
    const width = Math.min(tabs, os.availableParallelism()); // the renderer's tabs per crawl
    row(`browser floor: the product's renders of the ${n} scripted pages alone (${width} tabs, a context per tab)`, floor, n, n, '–', '–');
    row('the same renders, a fresh context per page', perPage, n, n, '–', '–');
    row('the same renders, one tab (one context for the crawl)', oneContext, n, n, '–', '–');

    const ratio = (a: Timed<unknown>, b: Timed<unknown>) => a.seconds / b.seconds;
    const goal = (label: string, value: number, max: number) => console.log(`${label}: ${value.toFixed(2)}× (goal ≤ ${max}×) ${value <= max ? 'met' : 'NOT met'}`);
    console.log('');
    // The goals: at the far latency against linkinator, at the near one against the browser floor.
    const far = latency === FAR;
    const near = latency === NEAR;
    const show = (label: string, value: number, max: number, applies: boolean) => (applies ? goal(label, value, max) : console.log(`${label}: ${value.toFixed(2)}×`));
    show(`render=false / linkinator (${PEER_CONCURRENCY})`, ratio(plain, lk16), 0.6, far);
    show(`render=true / linkinator (${PEER_CONCURRENCY})`, ratio(rendered, lk16), 1.5, far);
    show('render=true / browser floor', ratio(rendered, floor), 1.2, near);
    console.log(`render=false / linkinator (default 100): ${ratio(plain, lkDefault).toFixed(2)}×; render=true / linkinator (default 100): ${ratio(rendered, lkDefault).toFixed(2)}×`);
    if (crawlee) console.log(`render=true / Crawlee: ${ratio(rendered, crawlee).toFixed(2)}×`);
    console.log(`isolation: a context per page / per tab: ${ratio(perPage, floor).toFixed(2)}×; one context for the crawl (one tab) / per tab: ${ratio(oneContext, floor).toFixed(2)}×`);
    reportFindings(p, r, site.url);
  } finally {
    site.close();
  }
}

/** Whether the rendered crawl found what the plain one found plus what the scripts insert, and nothing else. */
function reportFindings(p: Findings, r: Findings, base: string) {
  const scriptPages = Math.ceil(PAGES / SCRIPT_EVERY);
  const scriptBroken = Array.from({ length: scriptPages }, (_, k) => {
    const on = k === 0 ? `${base}/ ${base}/p/0` : `${base}/p/${k * SCRIPT_EVERY}`; // page 0 is both / and /p/0
    return `${base}/js-only/${k * SCRIPT_EVERY} on ${on}`;
  });
  const expected = new Set([...p.broken, ...scriptBroken]);
  const sameBroken = r.broken.size === expected.size && [...expected].every((u) => r.broken.has(u));
  const sameChecked = r.checked === p.checked + scriptPages;
  const fragmentsFixed = p.missingFragments.size > 0 && r.missingFragments.size === 0;
  if (!sameBroken) {
    console.log('expected, not found:', [...expected].filter((u) => !r.broken.has(u)));
    console.log('found, not expected:', [...r.broken].filter((u) => !expected.has(u)));
  }
  const identical = sameBroken && sameChecked && fragmentsFixed && r.pages === p.pages;
  console.log(
    `[${identical ? 'x' : ' '}] findings identical to render=false plus the script-inserted links ` +
      `(broken ${sameBroken ? 'same' : 'DIFFER'}, checked URLs ${sameChecked ? 'same' : 'DIFFER'}, ` +
      `script-set ids ${fragmentsFixed ? 'count' : 'NOT counted'}, pages ${r.pages}/${p.pages})`,
  );
}

interface InMemory {
  pages: Array<{ url: string; fetched: FetchedPage }>;
  resources: ResourceSource;
}

/** The pages' HTML and their scripts and style sheets, fetched before any timing. */
async function inMemory(pages: string[], assets: string[]): Promise<InMemory> {
  const fetched = await Promise.all(pages.map(async (url) => ({ url, fetched: { html: await (await fetch(url)).text(), contentType: 'text/html; charset=utf-8' } })));
  const served = new Map<string, ServedResource>();
  for (const url of assets) {
    const res = await fetch(url);
    served.set(url, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? '' }, body: Buffer.from(await res.arrayBuffer()) });
  }
  return { pages: fetched, resources: { get: async (url) => served.get(url) ?? null } };
}

/**
 * The renders of `memory.pages` as a crawl's render pass does them: one render session whose
 * tabs share the pages (`shared tabs`), or `width` at a time each in a session of its own, so
 * every page gets a fresh context (`context per page`).
 */
async function renderAll(renderer: PageRenderer, memory: InMemory, isolation: 'shared tabs' | 'context per page', width = 1): Promise<void> {
  const check = (page: { html?: string }) => {
    if (!page.html?.includes('/js-only/')) throw new Error('a floor render did not run the page script');
  };
  if (isolation === 'shared tabs') {
    const session = renderer.open(memory.resources);
    try {
      await Promise.all(memory.pages.map(async (p) => check(await session.render(p.url, 30_000, p.fetched))));
    } finally {
      session.close();
    }
    return;
  }
  const queue = [...memory.pages];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        const session = renderer.open(memory.resources);
        try {
          check(await session.render(p.url, 30_000, p.fetched));
        } finally {
          session.close();
        }
      }
    }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
