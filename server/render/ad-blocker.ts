import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PuppeteerBlocker } from '@ghostery/adblocker-puppeteer';
import type { Page } from 'puppeteer-core';
import type { Logger } from '../log.js';
import { enableAutoconsent } from './autoconsent.js';
import { packageRoot } from './package-root.js';

/**
 * AdGuard lists shipped (GPL-3.0) inside @adguard/dnr-rulesets: Base, Tracking Protection,
 * Social, URL Tracking, Cookie Notices, Popups, Other Annoyances, Widgets. Nothing is
 * downloaded at run time.
 */
const listIds = [2, 3, 4, 17, 18, 19, 21, 22];

export interface AdBlocker {
  /** Network + cosmetic filtering and consent-dialog opt-out for one page, before navigation. */
  enable(page: Page): Promise<void>;
}

/**
 * Builds the Ghostery engine on first use from the packaged lists (about 3 s) and caches its
 * serialized form under `cacheDir`, keyed by the rulesets' version (about 60 ms to load).
 */
export function createAdBlocker(opts: { cacheDir: string; log?: Logger }): AdBlocker {
  let engine: Promise<PuppeteerBlocker> | undefined;
  const load = () => {
    engine ??= loadEngine(opts.cacheDir, opts.log).catch((err) => {
      engine = undefined;
      throw err;
    });
    return engine;
  };
  return {
    async enable(page) {
      const blocker = await load();
      await blocker.enableBlockingInPage(page);
      await enableAutoconsent(page);
    },
  };
}

async function loadEngine(cacheDir: string, log?: Logger): Promise<PuppeteerBlocker> {
  const root = packageRoot('@adguard/dnr-rulesets');
  const pkgJson = path.join(root, 'package.json');
  const { version } = JSON.parse(await fs.readFile(pkgJson, 'utf8')) as { version: string };
  const cacheFile = path.join(cacheDir, `adblock-engine-${version}-${listIds.join('_')}.bin`);
  const blocker = await fs.readFile(cacheFile).then(
    (buf) => PuppeteerBlocker.deserialize(new Uint8Array(buf)),
    async () => {
      const started = Date.now();
      const dir = path.join(root, 'dist/filters/declarative');
      const lists = await Promise.all(
        listIds.map(async (n) => {
          const json = JSON.parse(await readList(path.join(dir, `ruleset_${n}`, `ruleset_${n}.json`))) as [{ metadata: { rawFilterList: string } }];
          return json[0].metadata.rawFilterList;
        }),
      );
      const built = PuppeteerBlocker.parse(lists.join('\n'), { loadNetworkFilters: true, loadCosmeticFilters: true });
      log?.info({ ms: Date.now() - started, cacheFile }, 'ad-block engine built');
      // A cache that cannot be written (a read-only filesystem) costs the next process 3 s, not the render.
      await writeCache(cacheFile, built.serialize()).catch((err: unknown) => log?.warn({ err, cacheDir }, 'ad-block engine not cached; set ADBLOCK_CACHE_DIR to a writable folder'));
      return built;
    },
  );
  // Cooperative request interception: the pool's scheme check also handles each request.
  blocker.setRequestInterceptionPriority(10);
  return blocker;
}

/** A list as the package ships it, or gzip'd beside (the container image keeps its lists so). */
async function readList(file: string): Promise<string> {
  return fs.readFile(file, 'utf8').catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
    return gunzipSync(await fs.readFile(`${file}.gz`)).toString('utf8');
  });
}

async function writeCache(cacheFile: string, bytes: Uint8Array): Promise<void> {
  await fs.mkdir(path.dirname(cacheFile), { recursive: true });
  // Write then rename, so a concurrent process never reads half a file.
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  await fs.writeFile(tmp, bytes);
  await fs.rename(tmp, cacheFile);
}

/**
 * Builds the engine into `cacheDir` ahead of time (the container image does, so no render pays
 * for it). `slimLists` removes the package's lists the engine never reads and gzips the ones
 * it does: they stay, as the engine's source (GPL-3.0), and as its fallback should the cache go.
 */
export async function buildAdBlockCache(cacheDir: string, opts: { slimLists?: boolean } = {}): Promise<void> {
  await loadEngine(cacheDir);
  if (!opts.slimLists) return;
  const dir = path.join(packageRoot('@adguard/dnr-rulesets'), 'dist/filters/declarative');
  const used = new Set(listIds.map((n) => `ruleset_${n}`));
  for (const entry of await fs.readdir(dir)) {
    if (!entry.startsWith('ruleset_')) continue;
    const folder = path.join(dir, entry);
    if (!used.has(entry)) {
      await fs.rm(folder, { recursive: true });
      continue;
    }
    const file = path.join(folder, `${entry}.json`);
    await fs.writeFile(`${file}.gz`, gzipSync(await fs.readFile(file), { level: 9 }));
    await fs.rm(file);
  }
}
