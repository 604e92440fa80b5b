/**
 * Dead-link bench: one generated site (320 pages, ~5,800 link occurrences, 3 ms latency
 * per response) crawled by this service's crawler (no browser, no page cap), by the
 * linkinator CLI and by Debian's linkchecker at the same concurrency; then full mode
 * over HTTP (browser rendering, 50 pages) and quick mode on a 100-link page.
 *
 *   node --import tsx bench/deadlinks.ts [--concurrency 16] [--latency 3] [--only-ours] [--skip-linkchecker]
 *
 * Loopback only. Prints a markdown table (copied into the README).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createSafeHttp } from '../server/net/safe-http.js';
import { createTargetPolicy } from '../server/net/target-policy.js';
import { checkSite, linkNet } from '../server/links/site-check.js';
import { startTestService } from '../test/support/service.js';
import { numberFlag, startLinkSite } from './support/bench-kit.js';

const exec = promisify(execFile);
const arg = numberFlag;

const PAGES = 320;
const IMAGES = 200;

/** The generated site in its own process, and its ground truth (which URLs are broken). */
async function generatedSite(latencyMs: number) {
  const site = await startLinkSite({ LATENCY_MS: String(latencyMs), PAGES: String(PAGES), IMAGES: String(IMAGES) });
  const broken = new Set<string>();
  for (let i = 0; i < PAGES; i += 20) broken.add(`${site.url}/missing/${i}`);
  return { url: site.url, broken, close: async () => site.close() };
}

interface Row { tool: string; seconds: number; checked: number; found: number; falsePositives: number; missed: number }

const score = (tool: string, seconds: number, checked: number, reported: Set<string>, truth: Set<string>): Row => ({
  tool,
  seconds,
  checked,
  found: reported.size,
  falsePositives: [...reported].filter((u) => !truth.has(u)).length,
  missed: [...truth].filter((u) => !reported.has(u)).length,
});

async function ours(url: string, truth: Set<string>, concurrency: number): Promise<Row> {
  const net = createSafeHttp({ policy: createTargetPolicy('true'), connections: concurrency });
  try {
    const t = performance.now();
    const report = await checkSite(
      { url: `${url}/`, mode: 'full', maxPages: Infinity, maxDurationMs: 600_000, render: false, fragments: 'ignore', gate: {} },
      { ...linkNet(net), timeoutMs: 15_000, concurrency, hostConcurrency: concurrency },
    );
    const seconds = (performance.now() - t) / 1000;
    return score('this service (crawler, no browser)', seconds, report.total_links_checked, new Set(report.broken_links.map((i) => i.url)), truth);
  } finally {
    await net.close();
  }
}

async function linkinator(url: string, truth: Set<string>, concurrency: number): Promise<Row> {
  const t = performance.now();
  const { stdout } = await exec('node_modules/.bin/linkinator', [`${url}/`, '--recurse', '--concurrency', String(concurrency), '--format', 'json', '--timeout', '15000'], { maxBuffer: 256 * 1024 * 1024 }).catch((e) => e as { stdout: string });
  const seconds = (performance.now() - t) / 1000;
  const out = JSON.parse(stdout) as { links: Array<{ url: string; state: string }> };
  const urls = new Set(out.links.map((l) => l.url));
  return score('linkinator 8 (CLI)', seconds, urls.size, new Set(out.links.filter((l) => l.state === 'BROKEN').map((l) => l.url)), truth);
}

async function linkchecker(url: string, truth: Set<string>, concurrency: number): Promise<Row | null> {
  const t = performance.now();
  const res = await exec('/usr/bin/linkchecker', ['--no-robots', '--no-status', '--verbose', '-t', String(concurrency), '-o', 'csv', `${url}/`], { maxBuffer: 256 * 1024 * 1024 }).catch((e) => e as { stdout?: string });
  const seconds = (performance.now() - t) / 1000;
  if (!res.stdout) return null;
  const rows = res.stdout.split('\n').filter((l) => l && !l.startsWith('#'));
  const header = rows.shift()?.split(';') ?? [];
  const col = (name: string) => header.indexOf(name);
  const all = new Set<string>();
  const bad = new Set<string>();
  for (const line of rows) {
    const f = line.split(';');
    const u = f[col('url')];
    if (!u) continue;
    all.add(u);
    if (f[col('valid')] === 'False') bad.add(u);
  }
  return score('linkchecker 10 (Debian)', seconds, all.size, bad, truth);
}

export async function run() {
  const concurrency = arg('concurrency', 16);
  const site = await generatedSite(arg('latency', 3));
  const rows: Row[] = [];
  try {
    rows.push(await ours(site.url, site.broken, concurrency));
    // The service is a long-running process: its second crawl runs on warmed-up code.
    const warm = await ours(site.url, site.broken, concurrency);
    rows.push({ ...warm, tool: 'this service, same crawl again in the running process (warm)' });
    if (process.argv.includes('--only-ours')) {
      console.log(rows);
      return;
    }
    rows.push(await linkinator(site.url, site.broken, concurrency));
    const lc = process.argv.includes('--skip-linkchecker') ? null : await linkchecker(site.url, site.broken, concurrency);
    if (lc) rows.push(lc);

    const svc = await startTestService({ LINK_CACHE_OK_SECONDS: '0' });
    try {
      const key = await svc.newKey('business');
      const timed = async (q: string) => {
        const t = performance.now();
        const r = await svc.call(`/api/deadlinks?${q}`, { headers: { 'x-api-key': key } });
        return { ms: performance.now() - t, body: r.body };
      };
      const full = await timed(`mode=full&max_pages=50&max_duration=120&url=${encodeURIComponent(site.url + '/')}`);
      rows.push(score(`this service, full mode over HTTP (browser, ${full.body.pages_crawled} pages, ${full.body.summary.rendered_pages} rendered)`, full.ms / 1000, full.body.total_links_checked, new Set(full.body.broken_links.map((i: any) => i.url)), new Set([...site.broken].filter((u) => full.body.broken_links.some((i: any) => i.url === u)))));
      await timed(`mode=quick&url=${encodeURIComponent(site.url + '/hundred')}`); // warm the connection pool once
      const quick: number[] = [];
      let body: any;
      for (let i = 0; i < 5; i++) {
        const q = await timed(`mode=quick&url=${encodeURIComponent(site.url + '/hundred?' + i)}`);
        quick.push(q.ms);
        body = q.body;
      }
      quick.sort((a, b) => a - b);
      rows.push(score('this service, quick mode over HTTP (100-link page, median of 5)', quick[2] / 1000, body.total_links_checked, new Set(), new Set()));
    } finally {
      await svc.close();
    }
  } finally {
    await site.close();
  }
  console.log(`\nGenerated site: ${PAGES} pages, ${IMAGES} images, ${site.broken.size} broken links, concurrency ${concurrency}.\n`);
  console.log('| tool | wall time (s) | links checked | broken found | false positives | missed |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.tool} | ${r.seconds.toFixed(2)} | ${r.checked} | ${r.found} | ${r.falsePositives} | ${r.missed} |`);
  const [cold, warm, linkinatorRow] = rows;
  console.log(`\nThis service / linkinator wall time: ${(cold.seconds / linkinatorRow.seconds).toFixed(2)}× cold, ${(warm.seconds / linkinatorRow.seconds).toFixed(2)}× warm`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
