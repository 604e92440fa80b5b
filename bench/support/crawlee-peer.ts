/**
 * Crawlee's PuppeteerCrawler, the field's standard browser crawler, as a bench peer: loaded
 * from data/bench-peers/crawlee (bench/support/install-peers.sh puts it there), never a
 * dependency of the service. Typed here only as far as the bench uses it.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'puppeteer-core';

const peer = path.resolve('data/bench-peers/crawlee');

export function crawleeInstalled(): boolean {
  return existsSync(path.join(peer, 'node_modules/@crawlee/puppeteer/package.json'));
}

/** A crawl of `start` as Crawlee does it: same-origin pages enqueued, every link-bearing attribute read after render. */
export async function crawleeCrawl(start: string, chromePath: string, launcher: unknown): Promise<{ pages: number; links: number }> {
  const { PuppeteerCrawler, Configuration } = createRequire(path.join(peer, 'package.json'))('@crawlee/puppeteer') as CrawleeModule;
  const links = new Set<string>();
  let pages = 0;
  const crawler = new PuppeteerCrawler(
    {
      launchContext: { launcher, launchOptions: { executablePath: chromePath, headless: true, args: ['--no-sandbox'] } },
      maxConcurrency: 4,
      maxRequestRetries: 0,
      async requestHandler({ page, enqueueLinks }) {
        pages++;
        const found = await page.$$eval('a[href], area[href], link[href], img[src], script[src], iframe[src], source[src]', (els: Element[]) =>
          els.map((e: Element) => (e as HTMLAnchorElement).href || (e as HTMLImageElement).src),
        );
        for (const u of found) links.add(u);
        await enqueueLinks({ strategy: 'same-origin' });
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  await crawler.run([start]);
  return { pages, links: links.size };
}

interface CrawleeModule {
  PuppeteerCrawler: new (
    options: {
      launchContext: { launcher: unknown; launchOptions: Record<string, unknown> };
      maxConcurrency: number;
      maxRequestRetries: number;
      requestHandler(ctx: { page: Page; enqueueLinks(o: { strategy: 'same-origin' }): Promise<unknown> }): Promise<void>;
    },
    config: unknown,
  ) => { run(urls: string[]): Promise<unknown> };
  Configuration: new (options: { persistStorage: boolean; purgeOnStart: boolean }) => unknown;
}
