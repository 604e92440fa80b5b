import { createConfig } from '../../server/config.js';
import { createBrowserPool, type BrowserPool } from '../../server/render/browser-pool.js';

/**
 * Ad/tracker/consent-manager domains that the test browser resolves to 127.0.0.1, so
 * block_ads tests can serve "third-party" scripts from a loopback server and count hits.
 * Pages use them with the test server's port: `http://ads.adnxs.com:PORT/…`.
 */
export const testAdDomains = [
  'doubleclick.net',
  'googlesyndication.com',
  'google-analytics.com',
  'googletagmanager.com',
  'adnxs.com',
  'criteo.com',
  'taboola.com',
  'outbrain.com',
  'hotjar.com',
  'scorecardresearch.com',
  'cookielaw.org',
  'onetrust.com',
  // A "publisher" name for pages that need a registrable domain (cosmetic filters key on it).
  'publisher.test',
];

const mapsToLoopback = (host: string) =>
  testAdDomains.some((d) => host === d || host.endsWith(`.${d}`)) ? '127.0.0.1' : undefined;

let shared: BrowserPool | undefined;

/**
 * The one browser pool of the whole test run (lazy: no Chromium starts until the first
 * render). Every `startTestService` passes it to its service; it closes after the run.
 */
export function sharedBrowserPool(): BrowserPool {
  if (!shared) {
    const config = createConfig({});
    shared = createBrowserPool(
      {
        chromePath: process.env.CHROME_PATH ?? config.CHROME_PATH,
        concurrency: 4,
        queue: 64,
        recycleAfter: 1_000,
        timeoutMs: 30_000,
      },
      { hostOverride: mapsToLoopback },
    );
    const pool = shared;
    // A root-level hook: registered once, while mocha loads the first spec file importing this.
    if (typeof after === 'function') after(() => pool.close());
  }
  return shared;
}
