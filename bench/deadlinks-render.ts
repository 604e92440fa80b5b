/**
 * Full mode's render pass against the field, in one run on one generated 50-page site
 * (style sheet, web font and images on every page; every 5th page a script inserting two
 * links and setting an id another page links to; 3 ms latency per response):
 *
 * - this service's crawl without the browser (`render=false`),
 * - this service's crawl with the browser (`render=true`, the default), pool already running,
 * - linkinator 8 (library, in this process, no rendering),
 * - Crawlee's PuppeteerCrawler (same Chromium, every page rendered, the same links read
 *   from the DOM after scripts ran; it launches its browser per crawl, as it is used).
 *
 * - the floor: Chromium alone (puppeteer, one context, `--tabs` tabs, warm browser) opening
 *   only the pages that have scripts to DOMContentLoaded, nothing fetched, checked or
 *   waited for beyond that. No renderer of these pages can be faster on this machine.
 *
 * Each is timed as the median of RUNS runs; prints page counts, times, both ratios and
 * whether the rendered findings equal the plain ones plus the script-inserted links.
 *
 *   node --import tsx bench/deadlinks-render.ts [--runs 5] [--concurrency 16] [--tabs 4] [--only-ours]
 */
import { fork } from 'node:child_process';
import { LinkChecker as Linkinator } from 'linkinator';
import puppeteer, { type Browser, type BrowserContext } from 'puppeteer-core';
import { crawleeCrawl, crawleeInstalled } from './support/crawlee-peer.js';
import { createBrowserRenderer } from '../server/links/browser-renderer.js';
import type { DeadLinkReport } from '../server/links/report.js';
import { checkSite, linkNet } from '../server/links/site-check.js';
import { createSafeHttp } from '../server/net/safe-http.js';
import { createTargetPolicy } from '../server/net/target-policy.js';
import { createBrowserPool, internalRenderOwner } from '../server/render/browser-pool.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

const PAGES = 50;
const SCRIPT_EVERY = 5;
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';

async function renderSite() {
  const child = fork('bench/support/link-site.ts', [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, LATENCY_MS: '3', PAGES: String(PAGES), IMAGES: '40', ASSETS: '1', SCRIPT_EVERY: String(SCRIPT_EVERY) },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the bench site exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, close: () => void child.kill('SIGTERM') };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed<T>(runs: number, fn: () => Promise<T>): Promise<{ seconds: number; last: T }> {
  const times: number[] = [];
  let last!: T;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    last = await fn();
    times.push((performance.now() - t) / 1000);
  }
  return { seconds: median(times), last };
}

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
  const runs = arg('runs', 5);
  const concurrency = arg('concurrency', 16);
  const site = await renderSite();
  const net = createSafeHttp({ policy: createTargetPolicy('true'), connections: concurrency });
  const tabs = arg('tabs', 4); // the service's default BROWSER_CONCURRENCY
  const pool = createBrowserPool({ chromePath: CHROME, concurrency: tabs, queue: 64, recycleAfter: 10_000, timeoutMs: 60_000 });
  const renderer = createBrowserRenderer(pool.as(internalRenderOwner), net.policy, tabs);
  const ours = (render: boolean) =>
    checkSite(
      { url: `${site.url}/`, mode: 'full', maxPages: Infinity, maxDurationMs: 300_000, render, fragments: 'warn', gate: {} },
      { ...linkNet(net), timeoutMs: 15_000, concurrency, hostConcurrency: concurrency, renderer },
    );
  try {
    await ours(true); // warm up: the service's pool and code are warm when a request arrives
    const plain = await timed(runs, () => ours(false));
    const rendered = await timed(runs, () => ours(true));
    if (process.argv.includes('--only-ours')) return void console.log({ plain: plain.seconds, rendered: rendered.seconds });
    const linkinator = await timed(runs, () =>
      new Linkinator().check({ path: `${site.url}/`, recurse: true, concurrency, timeout: 15_000, checkCss: true }),
    );
    // Installed by bench/support/install-peers.sh (`./run bench`); without it the row is left out.
    const crawlee = crawleeInstalled() ? await timed(runs, () => crawleeCrawl(`${site.url}/`, CHROME, puppeteer)) : undefined;
    if (!crawlee) console.log('Crawlee is not installed (bench/support/install-peers.sh): its row and ratio are left out.');
    const floorBrowser = await puppeteer.launch({ executablePath: CHROME, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    const scriptedUrls = [`${site.url}/`, ...Array.from({ length: Math.ceil(PAGES / SCRIPT_EVERY) }, (_, k) => `${site.url}/p/${k * SCRIPT_EVERY}`)];
    const floor = await timed(runs, () => chromiumFloor(floorBrowser, scriptedUrls, tabs, false));
    const isolatedFloor = await timed(runs, () => chromiumFloor(floorBrowser, scriptedUrls, tabs, true)).finally(() => floorBrowser.close());

    const p = findingsOf(plain.last);
    const r = findingsOf(rendered.last);
    const scriptPages = Math.ceil(PAGES / SCRIPT_EVERY);
    const scriptBroken = Array.from({ length: scriptPages }, (_, k) => {
      // Page 0 is both / and /p/0.
      const on = k === 0 ? `${site.url}/ ${site.url}/p/0` : `${site.url}/p/${k * SCRIPT_EVERY}`;
      return `${site.url}/js-only/${k * SCRIPT_EVERY} on ${on}`;
    });
    const expectedBroken = new Set([...p.broken, ...scriptBroken]);
    const sameBroken = r.broken.size === expectedBroken.size && [...expectedBroken].every((u) => r.broken.has(u));
    const sameChecked = r.checked === p.checked + scriptPages;
    const fragmentsFixed = p.missingFragments.size > 0 && r.missingFragments.size === 0;
    if (!sameBroken) {
      console.log('expected, not found:', [...expectedBroken].filter((u) => !r.broken.has(u)));
      console.log('found, not expected:', [...r.broken].filter((u) => !expectedBroken.has(u)));
    }
    const identical = sameBroken && sameChecked && fragmentsFixed && r.pages === p.pages;

    console.log(`\nGenerated site: ${PAGES} pages (style sheet, font, 6 images each; ${scriptPages} with a script inserting links), 3 ms latency; median of ${runs} runs.\n`);
    console.log('| tool | pages | rendered | links checked | broken | wall time (s) |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| this service, render=false | ${p.pages} | 0 | ${p.checked} | ${p.broken.size} | ${plain.seconds.toFixed(2)} |`);
    console.log(`| this service, render=true (default) | ${r.pages} | ${rendered.last.summary.rendered_pages} | ${r.checked} | ${r.broken.size} | ${rendered.seconds.toFixed(2)} |`);
    const lk = linkinator.last.links;
    console.log(`| linkinator 8 (no browser) | ${new Set(lk.filter((l) => l.url.startsWith(`${site.url}/p/`) || l.url === `${site.url}/`).map((l) => l.url)).size} | 0 | ${new Set(lk.map((l) => l.url)).size} | ${new Set(lk.filter((l) => l.state === 'BROKEN').map((l) => l.url)).size} | ${linkinator.seconds.toFixed(2)} |`);
    if (crawlee) console.log(`| Crawlee PuppeteerCrawler (links read after render) | ${crawlee.last.pages} | ${crawlee.last.pages} | ${crawlee.last.links} | – | ${crawlee.seconds.toFixed(2)} |`);
    const n = scriptedUrls.length;
    console.log(`| floor: Chromium alone opening the ${n} pages with scripts (${tabs} tabs in one context, to DOMContentLoaded) | ${n} | ${n} | – | – | ${floor.seconds.toFixed(2)} |`);
    console.log(`| floor with this service's isolation (a fresh context per tab, requests intercepted) | ${n} | ${n} | – | – | ${isolatedFloor.seconds.toFixed(2)} |`);
    const toLinkinator = rendered.seconds / linkinator.seconds;
    const toCrawlee = crawlee ? rendered.seconds / crawlee.seconds : NaN;
    console.log(`\nrender=true / linkinator: ${toLinkinator.toFixed(2)}× (goal ≤ 3×) ${toLinkinator <= 3 ? 'met' : 'NOT met'}`);
    if (crawlee) console.log(`render=true / Crawlee:    ${toCrawlee.toFixed(2)}× (goal ≤ 0.5×) ${toCrawlee <= 0.5 ? 'met' : 'NOT met'}`);
    console.log(`render=true / render=false: ${(rendered.seconds / plain.seconds).toFixed(2)}×`);
    const floorRatio = floor.seconds / linkinator.seconds;
    console.log(`floor / linkinator: ${floorRatio.toFixed(2)}×${floorRatio > 3 ? ' (above 3×: no renderer of these pages meets the goal on this machine)' : ''}`);
    console.log(`render=true / isolated floor: ${(rendered.seconds / isolatedFloor.seconds).toFixed(2)}× (what the crawl, the checks and the render pass add to Chromium's own work)`);
    console.log(
      `[${identical ? 'x' : ' '}] findings identical to render=false plus the script-inserted links ` +
        `(broken ${sameBroken ? 'same' : 'DIFFER'}, checked URLs ${sameChecked ? 'same' : 'DIFFER'}, ` +
        `script-set ids ${fragmentsFixed ? 'count' : 'NOT counted'}, pages ${r.pages}/${p.pages})`,
    );
  } finally {
    await pool.close();
    await net.close();
    site.close();
  }
}

/**
 * Chromium's own time for `urls`: `tabs` tabs sharing the pages, each opened to
 * DOMContentLoaded. `isolated`: each tab in its own fresh context with request interception
 * on (every request passed on untouched), the isolation this service's render pass keeps;
 * otherwise all tabs in one context, nothing intercepted.
 */
async function chromiumFloor(browser: Browser, urls: string[], tabs: number, isolated: boolean): Promise<void> {
  const contexts: BrowserContext[] = [];
  const newContext = async () => {
    const context = await browser.createBrowserContext();
    contexts.push(context);
    return context;
  };
  const shared = isolated ? undefined : await newContext();
  try {
    const queue = [...urls];
    await Promise.all(
      Array.from({ length: Math.min(tabs, urls.length) }, async () => {
        const page = await (shared ?? (await newContext())).newPage();
        if (isolated) {
          await page.setRequestInterception(true);
          page.on('request', (req) => void req.continue());
        }
        for (let url = queue.shift(); url; url = queue.shift()) await page.goto(url, { waitUntil: 'domcontentloaded' });
      }),
    );
  } finally {
    await Promise.all(contexts.map((c) => c.close()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
