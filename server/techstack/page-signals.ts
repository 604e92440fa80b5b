import * as cheerio from 'cheerio';
import type { DomQuery } from './fingerprint-db.js';
import { readDomWithCheerio } from './dom-reader.js';

/** What a page offers for fingerprinting. Header, cookie and meta names are lowercased. */
export interface PageSignals {
  url: string;
  /** Every header line is its own value: `^` anchors each repeated line. */
  headers: Record<string, string[]>;
  /** Every value a cookie name was given. */
  cookies: Record<string, string[]>;
  meta: Record<string, string[]>;
  scriptSrc: string[];
  /** Script bodies, one per script: inline ones, and with a browser the external ones too. */
  scripts: string[];
  html: string;
  /** The page's visible text: the browser's `innerText` of the body; from the markup when fetched. */
  text: string;
  /** Style sheet text, one entry per sheet: `<style>` elements, and in the browser every sheet it can read. */
  css: string[];
  /** Browser only: host names of the XHR and fetch requests the page made. */
  xhr: string[];
  /** https only: the organisation and common name of the issuer of the site's certificate. */
  certIssuer?: string[];
  /** Browser only: global property chain → its value as text (`jQuery.fn.jquery` → `3.7.1`). */
  js: Record<string, string>;
  /** Per selector that matched: the values of every matching element. */
  dom: DomFinding[];
}

export interface DomFinding {
  selector: string;
  /** Distinct non-empty trimmed `textContent`s. */
  texts: string[];
  /** Attribute name → the distinct values of the elements that have it. */
  attributes: Record<string, string[]>;
  /** Browser only: property name → the distinct values, as text. */
  properties: Record<string, string[]>;
}

/** Header lines by lowercased name; `set-cookie` lines are kept as they came. */
export function headerLines(raw: Record<string, string | string[] | undefined>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    (out[name.toLowerCase()] ??= []).push(...(Array.isArray(value) ? value : [value]));
  }
  return out;
}

/** Cookie name (lowercased, as the engine compares them) → values, from `Set-Cookie` lines. */
export function cookiesFromSetCookie(lines: string[], into: Record<string, string[]> = {}): Record<string, string[]> {
  for (const line of lines) {
    const [pair] = line.split(';');
    const i = pair.indexOf('=');
    if (i > 0) addValue(into, pair.slice(0, i).trim().toLowerCase(), pair.slice(i + 1).trim());
  }
  return into;
}

export function addValue(record: Record<string, string[]>, key: string, value: string) {
  const values = (record[key] ??= []);
  if (!values.includes(value)) values.push(value);
}

/**
 * Meta tags, script URLs, inline scripts and, when `dom` queries are given, the elements
 * they select, read from the HTML with cheerio.
 */
export function documentSignals(html: string, pageUrl: string, domQueries?: DomQuery[]) {
  const $ = cheerio.load(html);
  const meta: Record<string, string[]> = {};
  $('meta').each((_, el) => {
    // The engine reads `name` and `property` only. The data also has http-equiv names
    // (content-security-policy, x-powered-cms, …) that it can never match; they are read here.
    const name = ($(el).attr('name') || $(el).attr('property') || $(el).attr('http-equiv') || '').toLowerCase();
    const content = $(el).attr('content');
    if (name && content !== undefined) (meta[name] ??= []).push(content);
  });
  const base = baseUrl($('base[href]').first().attr('href'), pageUrl);
  const scriptSrc: string[] = [];
  const scripts: string[] = [];
  $('script').each((_, el) => {
    const src = $(el).attr('src');
    if (src && !src.startsWith('data:text/javascript;')) scriptSrc.push(absolute(src, base));
    // As the engine: every script element's text, whatever its type (JSON, templates).
    const text = $(el).text();
    if (text) scripts.push(text);
  });
  const css = $('style')
    .map((_, el) => $(el).text())
    .get()
    .filter(Boolean);
  return { meta, scriptSrc, scripts, css, text: visibleText($), dom: domQueries ? readDomWithCheerio($, domQueries) : [] };
}

/** Cap of the text a `text` pattern reads, as for a page of about a million characters. */
export const TEXT_MAX_CHARS = 1_000_000;

/**
 * The body's text as a reader sees it without running the page: no scripts, styles,
 * templates, `<noscript>` (a browser with scripts on does not show it) or `hidden` elements,
 * white space collapsed as rendering does. Close to the browser's `innerText`, which the
 * render mode reads; block boundaries are not line breaks here.
 */
function visibleText($: cheerio.CheerioAPI): string {
  const body = $('body').clone();
  body.find('script, style, template, noscript, [hidden]').remove();
  return body.text().replace(/\s+/g, ' ').trim().slice(0, TEXT_MAX_CHARS);
}

function baseUrl(href: string | undefined, pageUrl: string): string {
  return href ? absolute(href, pageUrl) : pageUrl;
}

/** The URL as the browser's `src` property gives it; an unparsable one as written. */
function absolute(src: string, base: string): string {
  try {
    return new URL(src, base).href;
  } catch {
    return src;
  }
}
