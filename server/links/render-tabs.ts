import type { CDPSession, Page } from 'puppeteer-core';
import type { TargetPolicy } from '../net/target-policy.js';
import { withTimeout } from '../time-bounds.js';
import type { RenderPages, Lease } from '../render/browser-pool.js';
import type { FetchedPage, RenderedPage, RenderSession } from './site-crawler.js';

/** Pages one tab renders before it gives its slot back, so other callers get their turn. */
const PAGES_PER_TAB = 8;
/** How long a tab with nothing to render waits for the crawl's next page before closing. */
const IDLE_MS = 300;

export interface RenderJob {
  url: string;
  /** This page's budget in ms. */
  budget: number;
  fetched?: FetchedPage;
}

interface Queued extends RenderJob {
  resolve(page: RenderedPage): void;
  reject(err: unknown): void;
}

/**
 * The renders of one crawl in a few browser tabs (pool leases), each rendering page after
 * page: creating and closing an isolated context costs more than rendering a small page.
 * Tabs open as pages arrive, up to `width` and while the pool has slots free, and close
 * when idle, after PAGES_PER_TAB pages, or when a page fails (the next page then gets a
 * fresh context). Between pages a tab is
 * emptied (its origin's cookies and storage are cleared) and its script budget starts
 * again, so each page renders as in a fresh tab.
 */
export function openRenderTabs(
  pool: RenderPages,
  policy: TargetPolicy,
  width: number,
  /** Pages the pool could open now: a tab beyond the first opens only into a free slot. */
  freeSlots: () => number,
  render: (page: Page, job: RenderJob) => Promise<RenderedPage>,
): RenderSession {
  const queue: Queued[] = [];
  const idle: Array<() => void> = [];
  let tabs = 0;
  let closed = false;

  const nextJob = async (): Promise<Queued | undefined> => {
    if (!queue.length && !closed) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          const i = idle.indexOf(wake);
          if (i >= 0) idle.splice(i, 1);
          resolve();
        }, IDLE_MS);
        idle.push(wake);
      });
    }
    return queue.shift();
  };

  const tab = async (page: Page, lease: Lease, first: Queued) => {
    let job: Queued | undefined = first;
    // One DevTools session for the tab's emptying, not one per page (each costs a round trip to attach).
    let cdp: Promise<CDPSession> | undefined;
    for (let n = 0; job; n++) {
      const current = job;
      try {
        if (n > 0) await emptyTab(page, (cdp ??= page.createCDPSession()), lease);
        current.resolve(await withTimeout(render(page, current), current.budget, () => new Error(`the page did not render within ${current.budget} ms`)));
      } catch (err) {
        current.reject(err);
        throw err; // ends the lease: the context is closed, whatever state it is in
      }
      job = n + 1 < PAGES_PER_TAB && !closed ? await nextJob() : undefined;
    }
  };

  const openTab = (first: Queued) => {
    tabs++;
    let started = false;
    pool
      .withPage({ policy, timeoutMs: first.budget * PAGES_PER_TAB }, (page, lease) => {
        started = true;
        return tab(page, lease, first);
      })
      .catch((err: unknown) => {
        if (!started) first.reject(err); // no page to render on (queue full, browser down): the crawl keeps its HTML
      })
      .finally(() => {
        tabs--;
        const next = !closed ? queue.shift() : undefined;
        if (next) openTab(next);
      });
  };

  return {
    render(url, budget, fetched) {
      if (closed) return Promise.reject(new Error('the crawl has ended'));
      return new Promise<RenderedPage>((resolve, reject) => {
        const job: Queued = { url, budget, fetched, resolve, reject };
        if (!idle.length && tabs < width && (tabs === 0 || freeSlots() > 0)) return openTab(job);
        queue.push(job);
        idle.shift()?.();
      });
    },
    close() {
      closed = true;
      for (const wake of idle.splice(0)) wake();
      for (const job of queue.splice(0)) job.reject(new Error('the crawl has ended'));
    },
  };
}

/**
 * Leaves nothing of the last page behind: its origin's cookies and storage and its script
 * time. Its document is replaced by the next navigation (the renderer ignores navigations
 * the old document starts meanwhile); a detour through about:blank cost more than a render.
 */
async function emptyTab(page: Page, cdp: Promise<CDPSession>, lease: Lease): Promise<void> {
  const last = page.url();
  const clearing = /^https?:/i.test(last)
    ? [
        page.evaluate(() => sessionStorage.clear()).catch(() => undefined),
        cdp.then((session) => session.send('Storage.clearDataForOrigin', { origin: new URL(last).origin, storageTypes: 'all' })),
      ]
    : [];
  await Promise.all([...clearing, lease.restartScriptBudget()]);
}
