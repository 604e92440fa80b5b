/**
 * Analysis bench: time per call of perf, ssl and techstack against loopback fixtures,
 * and tech-stack throughput (pages/s) against WhatWeb on the same fixture pages.
 *
 *   node --import tsx bench/analysis.ts [--rounds 30] [--whatweb /usr/bin/whatweb]
 *
 * Needs the fingerprint data (scripts/fetch-fingerprints.sh). Loopback only.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { createSafeHttp } from '../server/net/safe-http.js';
import { createTargetPolicy } from '../server/net/target-policy.js';
import { checkPerf } from '../server/perf/perf-check.js';
import { createTechDetector } from '../server/techstack/tech-detector.js';
import { checkTechstack } from '../server/techstack/techstack-check.js';
import { checkTls } from '../server/tls/tls-check.js';
import { loadTrustedCas } from '../server/tls/trust-store.js';
import { html, startFixtureSite } from '../test/analysis/support/fixture-site.js';
import { makeCa, makeLeaf, startTlsServer } from '../test/analysis/support/certs.js';
import { plainPage, vueAppHeaders, vueAppPage, wordpressHeaders, wordpressPage } from '../test/analysis/fixtures.js';

const execFileAsync = promisify(execFile);
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const rounds = Number(arg('rounds', '30'));
const whatweb = arg('whatweb', '/usr/bin/whatweb');

async function time<T>(n: number, fn: () => Promise<T>): Promise<{ median: number; p95: number; last: T }> {
  const ms: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    last = await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(n / 2)], p95: ms[Math.min(n - 1, Math.floor(n * 0.95))], last: last as T };
}

export async function run() {
  const site = await startFixtureSite({
    '/blog': (req, res) => {
      res.setHeader('set-cookie', 'PHPSESSID=abc; path=/');
      html(wordpressPage, wordpressHeaders)(req, res);
    },
    '/app': html(vueAppPage, vueAppHeaders),
    '/plain': html(plainPage),
    '/gz': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'cache-control': 'max-age=60', etag: '"x"' });
      res.end(zlib.gzipSync(wordpressPage));
    },
  });
  const ca = await makeCa();
  const tlsSite = await startTlsServer(await makeLeaf({ ca }));
  const policy = createTargetPolicy('127.0.0.0/8');
  const http = createSafeHttp({ policy });
  const detector = createTechDetector({ dataDir: process.env.FINGERPRINTS_DIR ?? './data/fingerprints' });
  const caList = loadTrustedCas({ extraCas: [ca.cert] });
  const pages = ['/blog', '/app', '/plain'].map((p) => site.url + p);

  try {
    const t0 = performance.now();
    await detector.ready();
    console.log(`fingerprints compiled once in ${(performance.now() - t0).toFixed(0)} ms\n`);

    // One untimed call each, so JIT and regex compilation are not in the medians.
    await checkPerf({ url: `${site.url}/gz` }, { policy });
    await checkTls({ host: 'localhost', port: tlsSite.port }, { policy, ca: caList });
    for (const url of pages) await checkTechstack({ url }, { http, detector });

    console.log(`time per call (${rounds} calls each, loopback, domain functions without HTTP API overhead)`);
    const perf = await time(rounds, () => checkPerf({ url: `${site.url}/gz` }, { policy }));
    const ssl = await time(rounds, () => checkTls({ host: 'localhost', port: tlsSite.port }, { policy, ca: caList }));
    const tech = await time(rounds, () => checkTechstack({ url: `${site.url}/blog` }, { http, detector }));
    for (const [name, r] of [['perf', perf], ['ssl', ssl], ['techstack', tech]] as const) {
      console.log(`  ${name.padEnd(10)} median ${r.median.toFixed(1)} ms   p95 ${r.p95.toFixed(1)} ms`);
    }

    console.log(`\ntech-stack throughput on ${pages.length} fixture pages x ${rounds} rounds, sequential`);
    const ours: Record<string, string[]> = {};
    const s0 = performance.now();
    for (let i = 0; i < rounds; i++) {
      for (const url of pages) {
        const r = await checkTechstack({ url }, { http, detector });
        ours[url] = [...new Set(Object.values(r.technologies).flat().map((t) => (t.version ? `${t.name} ${t.version}` : t.name)))];
      }
    }
    const oursSec = (performance.now() - s0) / 1000;
    const oursRate = (pages.length * rounds) / oursSec;
    console.log(`  sitelens  ${oursRate.toFixed(1)} pages/s (${(pages.length * rounds)} pages in ${oursSec.toFixed(2)} s)`);

    if (!existsSync(whatweb)) {
      console.log(`  whatweb   not found at ${whatweb}; skipped`);
    } else {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'whatweb-'));
      const log = path.join(dir, 'out.json');
      const targets = Array.from({ length: rounds }, () => pages).flat();
      const w0 = performance.now();
      await execFileAsync(whatweb, ['--color=never', '--quiet', '-a', '1', '--max-threads', '1', `--log-json=${log}`, ...targets], { maxBuffer: 64 * 1024 * 1024 });
      const wwSec = (performance.now() - w0) / 1000;
      const w1 = performance.now();
      await execFileAsync(whatweb, ['--color=never', '--quiet', '-a', '1', `--log-json=${log}.threads`, ...targets], { maxBuffer: 64 * 1024 * 1024 });
      const wwThreadsSec = (performance.now() - w1) / 1000;
      const wwRate = targets.length / wwSec;
      const wwThreadsRate = targets.length / wwThreadsSec;
      const best = Math.max(wwRate, wwThreadsRate);
      const parsed = JSON.parse(await readFile(log, 'utf8')) as Array<{ target: string; plugins: Record<string, { version?: string[] }> }>;
      const theirs: Record<string, string[]> = {};
      for (const entry of parsed) {
        theirs[entry.target] = Object.entries(entry.plugins).map(([n, p]) => (p.version?.length ? `${n} ${p.version[0]}` : n));
      }
      await rm(dir, { recursive: true, force: true });
      console.log(`  whatweb   ${wwRate.toFixed(1)} pages/s (${targets.length} pages in ${wwSec.toFixed(2)} s, one process, -a 1, 1 thread; includes Ruby start-up)`);
      console.log(`  whatweb   ${wwThreadsRate.toFixed(1)} pages/s with its default 25 threads`);
      console.log(`  ratio     sitelens (sequential) is ${(oursRate / wwRate).toFixed(1)}x WhatWeb single-threaded, ${(oursRate / best).toFixed(1)}x its best run`);
      console.log('\nwhat each detected');
      for (const url of pages) {
        console.log(`  ${url}`);
        console.log(`    sitelens: ${(ours[url] ?? []).join(', ') || '(nothing)'}`);
        console.log(`    whatweb:  ${(theirs[url] ?? []).join(', ') || '(nothing)'}`);
      }
    }
  } finally {
    await http.close();
    await site.close();
    await tlsSite.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
