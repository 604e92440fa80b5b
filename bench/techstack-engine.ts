/**
 * Our tech-stack matcher beside the Wappalyzer engine it follows (wappalyzer-core 6.10.66
 * and its browser driver, bench peers, GPL-3.0, never a dependency), on the same loopback
 * pages, headers and cookies, fetched and rendered:
 *
 * 1. every case of the rule tables (test/analysis/techstack-cases/) with its small
 *    fingerprint set: where the two differ, the case must name why (`engine`), else the
 *    difference is printed as unexplained;
 * 2. a few realistic pages with the full fingerprint data: what each reports.
 *
 *   node --import tsx bench/techstack-engine.ts [--tables | --pages] [--case TEXT]
 *   (after bench/support/install-peers.sh; --case runs the rule-table cases whose title has TEXT)
 *
 * Loopback only: the engine's Chromium loads nothing but the bench's own site.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createConfig } from '../server/config.js';
import { createSafeHttp } from '../server/net/safe-http.js';
import { createTargetPolicy } from '../server/net/target-policy.js';
import { createBrowserPool, internalRenderOwner } from '../server/render/browser-pool.js';
import type { RawCategory, RawTechnology } from '../server/techstack/fingerprint-db.js';
import { createTechDetector, type TechDetector } from '../server/techstack/tech-detector.js';
import { checkTechstack } from '../server/techstack/techstack-check.js';
import { startFixtureSite } from '../test/analysis/support/fixture-site.js';
import { caseRoutes, caseTechnologies, reported, testCategories, writeCaseFingerprints, type Mode, type TechCase } from '../test/analysis/support/techstack-cases.js';
import { ruleTables } from '../test/analysis/techstack-cases/index.js';
import { realisticPages } from './support/engine-pages.js';
import { engineInstalled, loadEngine, type EngineTech } from './support/wappalyzer-engine.js';

const modes: Mode[] = ['fetch', 'render'];
type Engine = ReturnType<typeof loadEngine>;
type Reading = Array<{ name: string; version: string | null; confidence: number }>;

const show = (list: Reading) => list.map((t) => `${t.name}${t.version ? ` ${t.version}` : ''} (${t.confidence})`).join(', ') || '(nothing)';
const key = (list: Reading) => show([...list].sort((a, b) => a.name.localeCompare(b.name)));

export async function run() {
  if (!engineInstalled()) {
    console.log('the Wappalyzer engine is not installed: run bench/support/install-peers.sh (./run bench does); skipped');
    return;
  }
  const config = createConfig({});
  const engine = loadEngine(config.CHROME_PATH);
  const http = createSafeHttp({ policy: createTargetPolicy('127.0.0.0/8') });
  const browser = createBrowserPool({ chromePath: config.CHROME_PATH, concurrency: 1, queue: 4, recycleAfter: 1000, timeoutMs: 60_000, warmSpare: false });
  const ours = async (url: string, mode: Mode, detector: TechDetector): Promise<Reading> => {
    const r = await checkTechstack({ url, render: mode === 'render' }, { http, detector, browser: browser.as(internalRenderOwner) });
    return reported(r.technologies);
  };
  const part = process.argv.includes('--pages') ? 'pages' : process.argv.includes('--tables') ? 'tables' : 'both';
  try {
    if (part !== 'pages') await compareRuleTables(engine, ours);
    if (part !== 'tables') await compareRealisticPages(engine, ours);
  } finally {
    await engine.close();
    await browser.close();
    await http.close();
  }
}

async function compareRuleTables(engine: Engine, ours: (url: string, mode: Mode, d: TechDetector) => Promise<Reading>) {
  const counts = { agree: 0, documented: 0, unexplained: 0, stale: 0 };
  const notes: string[] = [];
  console.log('rule tables: each case with its own fingerprint set\n');
  const only = process.argv.includes('--case') ? process.argv[process.argv.indexOf('--case') + 1] : undefined;
  for (const table of ruleTables) {
    for (const c of table.cases.filter((x) => !only || x.title.includes(only))) {
      const dir = await writeCaseFingerprints(c);
      const site = await startFixtureSite(caseRoutes(c));
      const detector = createTechDetector({ dataDir: dir });
      try {
        for (const mode of modes) {
          const url = site.url + (c.path ?? '/');
          const a = await ours(url, mode, detector);
          const b = await engine[mode](url, caseTechnologies(c), testCategories).catch((err: Error) => [{ name: `(engine failed: ${err.message})`, version: null, confidence: 0 }]);
          const why = c.engine?.[mode];
          const same = key(a) === key(b);
          const verdict = same ? (why ? 'AGREES (stale note)' : 'agrees') : why ? 'differs (documented)' : 'DIFFERS (unexplained)';
          counts[same ? (why ? 'stale' : 'agree') : why ? 'documented' : 'unexplained']++;
          console.log(`  ${mode.padEnd(6)} ${verdict.padEnd(22)} ${table.unit}: ${c.title}`);
          if (!same) {
            console.log(`           ours:   ${show(a)}\n           engine: ${show(b)}${why ? `\n           why:    ${why}` : ''}`);
            if (!why) notes.push(`${mode} ${table.unit}: ${c.title}`);
          }
        }
      } finally {
        await site.close();
        await rm(dir, { recursive: true, force: true });
      }
    }
  }
  const total = counts.agree + counts.documented + counts.unexplained + counts.stale;
  console.log(`\n  ${total} readings: ${counts.agree + counts.stale} agree, ${counts.documented} differ where the case names the engine's behaviour, ${counts.unexplained} differ unexplained${counts.stale ? `, ${counts.stale} notes no longer needed` : ''}`);
  for (const n of notes) console.log(`  unexplained: ${n}`);
}

async function compareRealisticPages(engine: Engine, ours: (url: string, mode: Mode, d: TechDetector) => Promise<Reading>) {
  const dataDir = process.env.FINGERPRINTS_DIR ?? './data/fingerprints';
  const technologies = JSON.parse(await readFile(path.join(dataDir, 'technologies.json'), 'utf8')) as Record<string, RawTechnology>;
  const categories = JSON.parse(await readFile(path.join(dataDir, 'categories.json'), 'utf8')) as Record<string, RawCategory>;
  const detector = createTechDetector({ dataDir });
  let same = 0;
  let total = 0;
  console.log(`\nrealistic pages with the full fingerprint data (${Object.keys(technologies).length} technologies)\n`);
  for (const p of realisticPages) {
    const site = await startFixtureSite(caseRoutes({ ...p, technologies: {}, expect: [] } satisfies TechCase));
    try {
      for (const mode of modes) {
        const a = await ours(`${site.url}/`, mode, detector);
        const b: EngineTech[] = await engine[mode](`${site.url}/`, technologies, categories);
        const names = [...new Set([...a, ...b].map((t) => t.name))].sort();
        const alike = names.filter((n) => key(a.filter((t) => t.name === n)) === key(b.filter((t) => t.name === n)));
        same += alike.length;
        total += names.length;
        console.log(`  ${mode.padEnd(6)} ${p.title}: ${alike.length} of ${names.length} technologies alike`);
        for (const n of names.filter((x) => !alike.includes(x))) {
          console.log(`           ${n.padEnd(22)} ours: ${show(a.filter((t) => t.name === n)).padEnd(34)} engine: ${show(b.filter((t) => t.name === n))}`);
        }
      }
    } finally {
      await site.close();
    }
  }
  console.log(`\n  ${same} of ${total} technology readings alike (name, version and confidence)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
