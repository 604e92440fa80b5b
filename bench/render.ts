/**
 * Rendering benchmarks, one run, loopback only:
 *  (a) GET /api/screenshot over HTTP (fresh incognito context per shot, safety proxy, limits)
 *      vs raw CDP on a warm browser (same page: new context, goto, capture) vs a warm page's
 *      capture alone vs a launch-per-shot tool (what capture-website does); throughput at 8
 *      concurrent clients.
 *  (b) POST-free chart renders/s in worker threads vs Chart.js on the main thread, with the
 *      event loop's max delay while drawing.
 *   npm run bench -- render
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import puppeteer from 'puppeteer-core';
import { startTestService } from '../test/support/service.js';
import renderChart, { type ChartTask } from '../server/charts/chart-worker.js';

const SHOTS = Number(process.env.BENCH_SHOTS ?? 30);
const CHART_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const pageHtml = `<!doctype html><html><head><style>body{font:16px sans-serif;margin:2rem}</style></head>
<body><h1>Benchmark page</h1>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(20)}</body></html>`;

function pct(values: number[], p: number) {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]);
}

async function timeEach(n: number, fn: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return { p50: pct(times, 50), p95: pct(times, 95) };
}

export async function run() {
  const site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const target = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const svc = await startTestService({ BROWSER_CONCURRENCY: '4' });
  // Business keys allow 60 per minute each; rotate so the limiter never answers 429.
  const keys: string[] = [];
  for (let i = 0; i < 6; i++) {
    const k = await svc.newKey('business');
    keys.push(k);
  }
  let call = 0;
  const shot = async () => {
    const r = await svc.call(`/api/screenshot?url=${encodeURIComponent(target)}&full_page=false`, {
      headers: { 'X-API-Key': keys[call++ % keys.length] },
    });
    if (r.status !== 200) throw new Error(`screenshot ${r.status} ${r.text}`);
  };

  try {
    await shot(); // warm: browser launch, proxy
    const api = await timeEach(SHOTS, shot);

    const browser = await puppeteer.launch({ executablePath: chromePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    const rawJob = async () => {
      const ctx = await browser.createBrowserContext();
      const page = await ctx.newPage();
      await page.setViewport({ width: 1280, height: 720 });
      await page.goto(target, { waitUntil: 'load' });
      await page.screenshot({ type: 'png' });
      await ctx.close();
    };
    await rawJob();
    const raw = await timeEach(SHOTS, rawJob);
    const warm = await browser.newPage();
    await warm.setViewport({ width: 1280, height: 720 });
    await warm.goto(target);
    const captureOnly = await timeEach(SHOTS, () => warm.screenshot({ type: 'png' }));
    await browser.close();

    const launchPerShot = await timeEach(Math.max(3, Math.round(SHOTS / 6)), async () => {
      const b = await puppeteer.launch({ executablePath: chromePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
      const p = await b.newPage();
      await p.setViewport({ width: 1280, height: 720 });
      await p.goto(target, { waitUntil: 'load' });
      await p.screenshot({ type: 'png' });
      await b.close();
    });

    const concurrentN = SHOTS * 2;
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next++ < concurrentN) await shot();
      }),
    );
    const throughput = concurrentN / ((performance.now() - started) / 1000);

    console.log(`\n(a) screenshot of a loopback page, 1280x720 PNG, ${SHOTS} sequential shots each`);
    console.table({
      'GET /api/screenshot (HTTP, fresh context, proxy)': api,
      'raw CDP, warm browser (context + goto + capture)': raw,
      'raw CDP, warm loaded page (capture only)': captureOnly,
      'launch per shot (capture-website style)': launchPerShot,
    });
    console.log(`ratio API / raw CDP job p50: ${(api.p50 / raw.p50).toFixed(2)}x (target <= 1.3x)`);
    console.log(`launch-per-shot / API p50: ${(launchPerShot.p50 / api.p50).toFixed(1)}x (target >= 10x)`);
    console.log(`throughput, 8 concurrent clients, pool of 4: ${throughput.toFixed(1)} screenshots/s`);

    // (b) charts
    const task: ChartTask = {
      type: 'bar',
      data: { labels: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'], datasets: [{ label: 'Sales', data: [3, 7, 4, 6, 9, 2] }] },
      options: {},
      width: 800,
      height: 450,
      format: 'png',
      quality: 90,
      background: '#ffffff',
    };
    const measure = async (draw: () => Promise<unknown>, concurrency: number) => {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      let done = 0;
      const until = performance.now() + CHART_SECONDS * 1000;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < until) {
            await draw();
            done++;
          }
        }),
      );
      loop.disable();
      return { 'renders/s': Math.round(done / CHART_SECONDS), 'event loop max delay ms': Math.round(loop.max / 1e6) };
    };
    await svc.deps.charts.render(task); // start the threads
    const threads = svc.deps.config.CHART_THREADS;
    const workers = await measure(() => svc.deps.charts.render(task), threads * 2);
    const mainThread = await measure(() => renderChart(task), 1);
    const peer = await quickChartEngine(task);
    const quickChart = peer ? await measure(peer, 1) : undefined;
    console.log(`\n(b) Chart.js bar chart 800x450 PNG for ${CHART_SECONDS} s each`);
    console.table({
      [`worker threads (piscina, ${threads} threads)`]: workers,
      'main thread (same code, no workers)': mainThread,
      ...(quickChart ? { 'chartjs-node-canvas (QuickChart engine, main thread)': quickChart } : {}),
    });
    if (quickChart) console.log(`ratio ours (workers) / chartjs-node-canvas renders/s: ${(workers['renders/s'] / quickChart['renders/s']).toFixed(2)}x (target >= 2x)`);
    else console.log('chartjs-node-canvas not installed: run bench/support/install-peers.sh (./run bench does)');
  } finally {
    await svc.close();
    await svc.deps.browser.close();
    site.close();
  }
}

/** chartjs-node-canvas from ./data/bench-peers (bench/support/install-peers.sh), drawing the same chart; undefined when absent. */
async function quickChartEngine(task: ChartTask): Promise<(() => Promise<unknown>) | undefined> {
  const peers = path.resolve('data/bench-peers/package.json');
  if (!fs.existsSync(peers)) return undefined;
  const { ChartJSNodeCanvas } = createRequire(peers)('chartjs-node-canvas') as {
    ChartJSNodeCanvas: new (o: { width: number; height: number; backgroundColour: string }) => { renderToBuffer(c: unknown): Promise<Buffer> };
  };
  const canvas = new ChartJSNodeCanvas({ width: task.width, height: task.height, backgroundColour: task.background });
  const config = { type: task.type, data: task.data, options: { ...task.options, animation: false, responsive: false } };
  return () => canvas.renderToBuffer(config);
}
