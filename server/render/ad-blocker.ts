import fs from 'node:fs/promises';
import path from 'node:path';
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
          const file = path.join(dir, `ruleset_${n}`, `ruleset_${n}.json`);
          const json = JSON.parse(await fs.readFile(file, 'utf8')) as [{ metadata: { rawFilterList: string } }];
          return json[0].metadata.rawFilterList;
        }),
      );
      const built = PuppeteerBlocker.parse(lists.join('\n'), { loadNetworkFilters: true, loadCosmeticFilters: true });
      await fs.mkdir(cacheDir, { recursive: true });
      // Write then rename, so a concurrent process never reads half a file.
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      await fs.writeFile(tmp, built.serialize());
      await fs.rename(tmp, cacheFile);
      log?.info({ ms: Date.now() - started, cacheFile }, 'ad-block engine built');
      return built;
    },
  );
  // Cooperative request interception: the pool's scheme check also handles each request.
  blocker.setRequestInterceptionPriority(10);
  return blocker;
}
