/**
 * Runs the real Lighthouse (the release `LIGHTHOUSE_VERSION` names) on every page of the
 * SEO agreement tables and prints where its verdict differs from the table's, so the
 * expected verdicts that test/analysis/seo-lighthouse.test.ts holds our audit to are
 * Lighthouse's own. Lighthouse is installed on first use into data/bench-peers/lighthouse
 * (gitignored); it drives Debian's Chromium. About 3 s a page.
 *   npm run bench -- seo-lighthouse          (BENCH_SEO_AUDIT=canonical for one audit's table)
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { LIGHTHOUSE_VERSION } from '../server/seo/seo-checks.js';
import { seoCaseTables } from '../test/analysis/seo-cases/index.js';
import { serveCase } from '../test/analysis/seo-cases/serve-case.js';

const exec = promisify(execFile);
const peerDir = path.resolve('data/bench-peers/lighthouse');

interface LighthouseAudit {
  score: number | null;
  scoreDisplayMode: string;
  errorMessage?: string;
}
type RunLighthouse = (url: string, flags: Record<string, unknown>) => Promise<{ lhr: { audits: Record<string, LighthouseAudit> } }>;

async function lighthouse(): Promise<{ run: RunLighthouse; launch: (o: Record<string, unknown>) => Promise<{ port: number; kill(): void }> }> {
  const lib = path.join(peerDir, 'node_modules/lighthouse/core/index.js');
  if (!existsSync(lib)) {
    mkdirSync(peerDir, { recursive: true });
    writeFileSync(path.join(peerDir, 'package.json'), '{"name":"bench-lighthouse","private":true}');
    console.log(`installing lighthouse@${LIGHTHOUSE_VERSION} into ${peerDir} …`);
    await exec('npm', ['install', '--no-audit', '--no-fund', '--legacy-peer-deps', `lighthouse@${LIGHTHOUSE_VERSION}`], { cwd: peerDir });
  }
  const run = ((await import(pathToFileURL(lib).href)) as { default: RunLighthouse }).default;
  const launcher = (await import(pathToFileURL(path.join(peerDir, 'node_modules/chrome-launcher/dist/index.js')).href)) as {
    launch: (o: Record<string, unknown>) => Promise<{ port: number; kill(): void }>;
  };
  return { run, launch: launcher.launch };
}

const verdictOf = (a: LighthouseAudit) =>
  a.scoreDisplayMode === 'notApplicable' ? 'na' : a.score === 1 ? 'pass' : a.score === 0 ? 'fail' : `error (${a.errorMessage ?? a.scoreDisplayMode})`;

export async function run() {
  const only = process.env.BENCH_SEO_AUDIT;
  const { run: runLighthouse, launch } = await lighthouse();
  const chrome = await launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  let total = 0;
  const differ: string[] = [];
  try {
    for (const [audit, cases] of Object.entries(seoCaseTables)) {
      if (only && audit !== only) continue;
      for (const c of cases) {
        const { site, url } = await serveCase(c);
        try {
          // ignoreStatusCode: otherwise Lighthouse stops the whole run on a 4xx/5xx page instead of failing http-status-code.
          const { lhr } = await runLighthouse(url, { port: chrome.port, onlyAudits: [audit], logLevel: 'silent', output: 'json', ignoreStatusCode: true });
          const verdict = verdictOf(lhr.audits[audit]);
          total++;
          if (verdict !== c.expect) differ.push(`${audit}: ${c.name}: Lighthouse ${verdict}, table ${c.expect}`);
        } finally {
          await site.close();
        }
      }
    }
  } finally {
    chrome.kill();
  }
  console.log(`Lighthouse ${LIGHTHOUSE_VERSION} agrees with the table on ${total - differ.length} of ${total} pages`);
  for (const line of differ) console.log(`  differs: ${line}`);
}
