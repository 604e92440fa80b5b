import type { HTTPResponse, Page } from 'puppeteer-core';
import { openPage } from '../render/open-page.js';
import { DOM_LIMITS, type DomLimits } from './dom-reader.js';
import type { DomQuery, FingerprintDb } from './fingerprint-db.js';
import { addValue, cookiesFromSetCookie, documentSignals, TEXT_MAX_CHARS, type DomFinding, type PageSignals } from './page-signals.js';

/** Style rules read at most, over every sheet, as the engine's driver reads 3,000. */
const CSS_MAX_RULES = 3000;

/** What the browser pass saw of the page, besides its signals. */
export interface RenderedPage {
  signals: PageSignals;
  status: number;
  finalUrl: string;
  headers: Headers;
}

/**
 * Loads the page in a leased Chromium page and reads its signals as the engine's browser
 * driver does: the main response's header lines, the browser's cookies, the rendered HTML
 * (meta, script URLs, scripts), the bodies of the scripts the page loaded, the values of
 * the fingerprints' JavaScript globals and the elements of their `dom` selectors, the
 * body's `innerText`, the rules of its style sheets and the hosts its XHR and fetch
 * requests went to.
 */
export async function browserSignals(page: Page, url: string, db: FingerprintDb, opts: { timeoutMs: number; maxScriptBytes: number }): Promise<RenderedPage> {
  const external: Array<Promise<string>> = [];
  page.on('response', (response: HTTPResponse) => {
    if (response.request().resourceType() !== 'script' || response.status() >= 300 || response.frame() !== page.mainFrame()) return;
    external.push(response.text().catch(() => '')); // a body Chromium no longer holds: nothing to match
  });
  // The engine's driver keeps only `xhr` requests; `fetch()` is how most pages call APIs now, so both count here.
  const xhr = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() !== 'xhr' && request.resourceType() !== 'fetch') return;
    try {
      xhr.add(new URL(request.url()).hostname);
    } catch {
      // not a URL with a host (data:, blob:): nothing to match
    }
  });
  const documentHeaders = await watchDocumentHeaders(page);
  const response = await openPage(page, url, { waitUntil: 'load', timeoutMs: opts.timeoutMs });
  await page.waitForNetworkIdle({ idleTime: 300, timeout: 2_000 }).catch(() => undefined); // late scripts are optional
  const headerLines: Record<string, string[]> = {};
  for (const [name, value] of Object.entries((await documentHeaders()) ?? response?.headers() ?? {})) {
    (headerLines[name.toLowerCase()] ??= []).push(...value.split('\n'));
  }
  const finalUrl = page.url();
  const html = await page.content();
  const doc = documentSignals(html, finalUrl);
  const cookies = cookiesFromSetCookie(headerLines['set-cookie'] ?? []);
  for (const c of await page.cookies()) addValue(cookies, c.name.toLowerCase(), c.value);
  const chains = [...db.js.keys()];
  const [js, dom, { text, css }] = await Promise.all([
    page.evaluate(readGlobals, chains),
    page.evaluate(readDom, db.domQueries, DOM_LIMITS),
    page.evaluate(readTextAndCss, TEXT_MAX_CHARS, CSS_MAX_RULES),
  ]);
  const scripts = [...doc.scripts];
  let budget = opts.maxScriptBytes;
  for (const body of await Promise.all(external)) {
    if (!body || budget <= 0) continue;
    scripts.push(body.slice(0, budget));
    budget -= body.length;
  }
  const { 'set-cookie': setCookies = [], ...rest } = headerLines;
  const signals: PageSignals = { url: finalUrl, headers: headerLines, cookies, meta: doc.meta, scriptSrc: doc.scriptSrc, scripts, html, text, css, xhr: [...xhr], js, dom };
  return { signals, status: response?.status() ?? 0, finalUrl, headers: toHeaders(rest, setCookies) };
}

/**
 * The main document's response headers as Chromium received them, a repeated header's
 * lines joined by "\n". Puppeteer's `response.headers()` joins them with ", " instead
 * (all but Set-Cookie), which no longer tells `PHP/8.2, PleskLin` from one line; the
 * DevTools protocol's raw headers still do. Resolves undefined when Chromium reported none
 * (a response from its cache or a service worker); the caller falls back to Puppeteer's.
 */
export async function watchDocumentHeaders(page: Page): Promise<() => Promise<Record<string, string> | undefined>> {
  const cdp = await page.createCDPSession();
  const raw = new Map<string, Record<string, string>>(); // request id → headers of its last hop
  const documents: Array<{ requestId: string; frameId?: string }> = [];
  cdp.on('Network.responseReceivedExtraInfo', (e) => raw.set(e.requestId, e.headers));
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Document') documents.push({ requestId: e.requestId, frameId: e.frameId });
  });
  await cdp.send('Network.enable');
  return async () => {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const main = documents.filter((d) => d.frameId === frameTree.frame.id).at(-1);
    await cdp.detach().catch(() => undefined); // the page closes with its context anyway
    return main && raw.get(main.requestId);
  };
}

function toHeaders(lines: Record<string, string[]>, setCookies: string[]): Headers {
  const headers = new Headers();
  for (const [name, values] of Object.entries(lines)) for (const v of values) headers.append(name, v);
  for (const c of setCookies) headers.append('set-cookie', c);
  return headers;
}

/* The functions below run inside the page (serialised by puppeteer); they must not use outer scope. */

/**
 * Each chain's value as text: a string or number as it is, anything else as "true" or
 * "false", as the engine reports it. As in the engine, the first name is looked up as a
 * global binding (so `const`/`let` globals count), a falsy global counts as absent, and a
 * later step needs an object or function to step into.
 *
 * The engine steps only into own properties (`hasOwnProperty`), so a global reached
 * through a prototype (a library's version on its constructor's prototype, a class
 * instance's method) is missed there; here any property the object has counts.
 */
function readGlobals(chains: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const roots = new Map<string, unknown>(); // many chains share their first name
  for (const chain of chains) {
    try {
      const parts = chain.replace(/\[([^\]]+)\]/g, '.$1').split('.');
      let value: unknown = window;
      if (/^[a-z_$][a-z0-9_$]*$/i.test(parts[0])) {
        const name = parts.shift() as string;
        if (!roots.has(name)) {
          try {
            roots.set(name, new Function(`return typeof ${name} === 'undefined' ? undefined : ${name}`)());
          } catch {
            roots.set(name, (window as unknown as Record<string, unknown>)[name]); // eval refused (DevTools' own is exempt from CSP): window properties only
          }
        }
        value = roots.get(name);
        if (!value) continue;
      }
      let present = true;
      for (const part of parts) {
        if (value === null || (typeof value !== 'object' && typeof value !== 'function') || !(part in (value as object))) {
          present = false;
          break;
        }
        value = (value as Record<string, unknown>)[part];
      }
      if (present) out[chain] = typeof value === 'string' || typeof value === 'number' ? String(value) : String(Boolean(value));
    } catch {
      continue; // a getter threw: the global is treated as absent
    }
  }
  return out;
}

/** Every element each selector matches, with the same limits as the cheerio reader. */
function readDom(queries: DomQuery[], limits: DomLimits): DomFinding[] {
  const out: DomFinding[] = [];
  for (const q of queries) {
    let nodes: NodeListOf<Element>;
    try {
      nodes = document.querySelectorAll(q.selector);
    } catch {
      continue; // selector syntax Chromium does not support
    }
    if (!nodes.length) continue;
    const finding: DomFinding = { selector: q.selector, texts: [], attributes: {}, properties: {} };
    // Found values as [list, value] pairs, kept below when new and the list has room
    // (no helper function: the bundler would wrap it in a name helper the page lacks).
    const found: Array<[string[], string]> = [];
    for (const node of Array.from(nodes).slice(0, limits.elements)) {
      if (q.text) {
        const text = (node.textContent ?? '').trim().slice(0, limits.textChars);
        if (text) found.push([finding.texts, text]);
      }
      for (const name of q.attributes) {
        const value = node.getAttribute(name);
        if (value !== null) found.push([(finding.attributes[name] ??= []), value]);
      }
      // The engine reads own properties only (expandos such as `_reactRootContainer`); any property counts here, as for globals.
      for (const name of q.properties) {
        if (!(name in node)) continue;
        const value = (node as unknown as Record<string, unknown>)[name];
        if (value !== undefined) found.push([(finding.properties[name] ??= []), typeof value === 'string' || typeof value === 'number' ? String(value) : String(Boolean(value))]);
      }
      for (const [values, value] of found.splice(0)) if (values.length < limits.values && !values.includes(value)) values.push(value);
    }
    out.push(finding);
  }
  return out;
}

/**
 * The body's `innerText`, and the rules of each style sheet as text, one entry per sheet.
 * A sheet from another origin cannot be read (its `cssRules` throws) and is skipped; the
 * engine's driver reads every sheet in one `try`, so one such sheet there loses them all.
 */
function readTextAndCss(maxChars: number, maxRules: number): { text: string; css: string[] } {
  const text = (document.body?.innerText ?? '').slice(0, maxChars);
  const css: string[] = [];
  let rules = 0;
  for (const sheet of Array.from(document.styleSheets)) {
    let list: CSSRuleList;
    try {
      list = sheet.cssRules;
    } catch {
      continue;
    }
    const parts: string[] = [];
    for (const rule of Array.from(list)) {
      if (rules++ >= maxRules) break;
      parts.push(rule.cssText);
    }
    if (parts.length) css.push(parts.join('\n'));
  }
  return { text, css };
}
