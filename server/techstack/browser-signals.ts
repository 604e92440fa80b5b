import type { Page } from 'puppeteer-core';
import type { FingerprintDb } from './fingerprint-db.js';
import type { DomFinding, PageSignals } from './tech-detector.js';
import { pageSignals } from './page-signals.js';

/** What the browser pass saw of the page, besides its signals. */
export interface RenderedPage {
  signals: PageSignals;
  status: number;
  finalUrl: string;
  headers: Headers;
}

interface DomQuery {
  probe: number;
  selector: string;
  text: boolean;
  attributes: string[];
  properties: string[];
}

/**
 * Loads the page in a leased Chromium page and reads, besides headers and HTML, the
 * values of the fingerprints' JavaScript globals and the DOM probes, in one evaluate
 * call each (the lists are built once per database).
 */
export async function browserSignals(page: Page, url: string, db: FingerprintDb, timeoutMs: number): Promise<RenderedPage> {
  const response = await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
  await page.waitForNetworkIdle({ idleTime: 300, timeout: 2_000 }).catch(() => undefined); // late scripts are optional
  const headers = new Headers();
  const setCookies: string[] = [];
  for (const [k, v] of Object.entries(response?.headers() ?? {})) {
    if (k === 'set-cookie') setCookies.push(...v.split('\n'));
    else headers.set(k, v);
  }
  const html = await page.content();
  const finalUrl = page.url();
  const signals = pageSignals({ url: finalUrl, headers, setCookies, html });
  for (const c of await page.cookies()) signals.cookies[c.name] ??= c.value;
  const { chains, queries } = browserProbes(db);
  signals.js = await page.evaluate(readGlobals, chains);
  signals.dom = await page.evaluate(readDom, queries);
  return { signals, status: response?.status() ?? 0, finalUrl, headers };
}

const probeCache = new WeakMap<FingerprintDb, { chains: string[]; queries: DomQuery[] }>();

function browserProbes(db: FingerprintDb) {
  let cached = probeCache.get(db);
  if (!cached) {
    cached = {
      chains: [...db.js.keys()],
      queries: db.dom.map((p, probe) => ({
        probe,
        selector: p.selector,
        text: Boolean(p.text),
        attributes: Object.keys(p.attributes ?? {}),
        properties: Object.keys(p.properties ?? {}),
      })),
    };
    probeCache.set(db, cached);
  }
  return cached;
}

/* The two functions below run inside the page (serialised by puppeteer); they must not use outer scope. */

function readGlobals(chains: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const chain of chains) {
    try {
      let v: unknown = window;
      for (const part of chain.split('.')) {
        if (v === null || v === undefined) break;
        v = (v as Record<string, unknown>)[part];
      }
      if (v === undefined || v === null) continue;
      out[chain] = typeof v === 'string' || typeof v === 'number' ? String(v) : '';
    } catch {
      continue; // a getter threw: treat the global as absent
    }
  }
  return out;
}

function readDom(queries: DomQuery[]): DomFinding[] {
  const out: DomFinding[] = [];
  for (const q of queries) {
    let el: Element | null = null;
    try {
      el = document.querySelector(q.selector);
    } catch {
      continue; // selector syntax Chromium does not support
    }
    if (!el) continue;
    const finding: DomFinding = { probe: q.probe };
    if (q.text) finding.text = (el.textContent ?? '').slice(0, 2000);
    if (q.attributes.length) {
      finding.attributes = {};
      for (const a of q.attributes) {
        const v = el.getAttribute(a);
        if (v !== null) finding.attributes[a] = v;
      }
    }
    if (q.properties.length) {
      finding.properties = {};
      for (const p of q.properties) {
        const v = (el as unknown as Record<string, unknown>)[p];
        if (v !== undefined && v !== null) finding.properties[p] = typeof v === 'string' || typeof v === 'number' ? String(v) : '';
      }
    }
    out.push(finding);
  }
  return out;
}
