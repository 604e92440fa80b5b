import type { CDPSession, Page } from 'puppeteer-core';
import { BadInputError } from '../errors/index.js';
import type { SafeHttp } from '../net/safe-http.js';
import type { RenderPages } from '../render/browser-pool.js';
import { watchDocumentHeaders } from '../techstack/browser-signals.js';
import { fetchPage } from '../techstack/page-fetch.js';
import { openPage } from '../render/open-page.js';

/** One response header line; a header sent twice is two entries, as Lighthouse sees them. */
export interface RawHeader {
  name: string;
  value: string;
}

/** What only the live DOM knows, in document order of `a` and `img` elements. */
export interface LiveFacts {
  /** `innerText` of HTML anchors (`textContent` of SVG ones): CSS-hidden text left out. */
  anchorTexts: string[];
  /** Whether each anchor without `href` has event listeners of its own (Lighthouse's `listeners`). */
  anchorListeners: boolean[];
  /** Whether each image is hidden from assistive technology (axe's `isVisibleToScreenReaders`). */
  hiddenImages: boolean[];
}

export interface PageSnapshot {
  url: string;
  /** URL of the main document response (after redirects). */
  documentUrl: string;
  /** URL shown in the address bar at the end (differs from `documentUrl` after `history.pushState`). */
  finalUrl: string;
  status: number;
  headers: RawHeader[];
  html: string;
  bytes: number;
  /** Reading stopped at the service's size limit: the page is larger than `bytes`. */
  truncated?: boolean;
  /** Set in render mode. */
  live?: LiveFacts;
}

export interface LoadOptions {
  url: string;
  timeoutMs: number;
  maxBytes?: number;
}

/**
 * Fetches the page through the target-safety client, keeping repeated headers apart:
 * `X-Robots-Tag: bingbot: noindex` next to `X-Robots-Tag: noindex` are two directives.
 */
export async function fetchSnapshot(opts: LoadOptions, http: SafeHttp): Promise<PageSnapshot> {
  const p = await fetchPage({ url: opts.url, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes }, { http });
  const type = p.headers.get('content-type') ?? '';
  if (type && !/html/i.test(type)) {
    throw new BadInputError(`url must point to an HTML page; it answered Content-Type ${type.split(';')[0]}`);
  }
  const headers = Object.entries(p.headerLines).flatMap(([name, values]) => values.map((value) => ({ name, value })));
  return { url: opts.url, documentUrl: p.finalUrl, finalUrl: p.finalUrl, status: p.status, headers, html: p.body, bytes: p.bytes, truncated: p.truncated };
}

/** Loads the page in Chromium (the pool and its safety proxy) and snapshots the DOM after scripts ran. */
export async function renderSnapshot(opts: LoadOptions, browser: RenderPages, http: SafeHttp): Promise<PageSnapshot> {
  return browser.withPage({ policy: http.policy, timeoutMs: opts.timeoutMs + 5_000 }, async (page) => {
    const documentHeaders = await watchDocumentHeaders(page);
    const response = await openPage(page, opts.url, { waitUntil: 'load', timeoutMs: opts.timeoutMs });
    // Single-page apps keep working after `load`; give their requests a moment to settle.
    await page.waitForNetworkIdle({ idleTime: 300, timeout: 3_000 }).catch(() => undefined);
    const html = await page.content();
    const raw = (await documentHeaders()) ?? response?.headers() ?? {};
    const headers = Object.entries(raw).flatMap(([name, v]) => v.split('\n').map((value) => ({ name: name.toLowerCase(), value })));
    const live = await readLiveFacts(page);
    const finalUrl = page.url();
    return {
      url: opts.url,
      documentUrl: response?.url() ?? finalUrl,
      finalUrl,
      status: response?.status() ?? 0,
      headers,
      html,
      bytes: Buffer.byteLength(html),
      live,
    };
  });
}

async function readLiveFacts(page: Page): Promise<LiveFacts> {
  // Runs in the page: no outer scope. Order matches `$('a')` / `$('img')` over `page.content()`.
  const seen = await page.evaluate(() => ({
    anchorTexts: Array.from(document.querySelectorAll<Element>('a'), (a) => (a instanceof HTMLElement ? a.innerText : (a.textContent ?? ''))),
    hiddenImages: Array.from(
      document.querySelectorAll('img'),
      (img) => img.closest('[aria-hidden="true" i], [inert]') !== null || !img.checkVisibility({ visibilityProperty: true }),
    ),
  }));
  const cdp = await page.createCDPSession();
  try {
    return { ...seen, anchorListeners: await anchorListeners(cdp) };
  } finally {
    await cdp.detach().catch(() => undefined); // the page closes with its context anyway
  }
}

/**
 * Which anchors without `href` have event listeners (added by script or an `on…`
 * attribute): only DevTools' `DOMDebugger.getEventListeners` can tell, as in Lighthouse's
 * AnchorElements gatherer. Anchors with an href are not asked about: the audit never
 * looks at their listeners.
 */
async function anchorListeners(cdp: CDPSession): Promise<boolean[]> {
  const { result } = await cdp.send('Runtime.evaluate', {
    expression: `Array.from(document.querySelectorAll('a'), (a) => (a.hasAttribute('href') ? null : a))`,
  });
  if (!result.objectId) return [];
  const { result: props } = await cdp.send('Runtime.getProperties', { objectId: result.objectId, ownProperties: true });
  const flags: boolean[] = [];
  for (const p of props) {
    const index = Number(p.name);
    if (!Number.isInteger(index)) continue;
    const objectId = p.value?.objectId;
    flags[index] = objectId ? (await cdp.send('DOMDebugger.getEventListeners', { objectId })).listeners.length > 0 : false;
  }
  return Array.from(flags, (f) => f ?? false);
}
