import { targetError } from '../errors/index.js';
import type { SafeHttp } from '../net/safe-http.js';
import type { RenderPages } from '../render/browser-pool.js';
import { browserSignals } from './browser-signals.js';
import { certIssuerOf } from './cert-issuer.js';
import type { FingerprintDb } from './fingerprint-db.js';
import { fetchPage } from './page-fetch.js';
import { cookiesFromSetCookie, documentSignals, type PageSignals } from './page-signals.js';
import type { DetectedTechnology, TechDetector } from './tech-detector.js';

export interface TechstackOptions {
  url: string;
  /** @default 5242880 */
  maxBytes?: number;
  /** @default 15000 */
  timeoutMs?: number;
  /**
   * Load the page in Chromium: `js` globals, element properties, external script bodies and
   * the rendered DOM are matched too. @default false
   */
  render?: boolean;
}

export interface TechstackReport {
  url: string;
  final_url: string;
  status_code: number;
  technologies: Record<string, DetectedTechnology[]>;
  technology_count: number;
  headers: Record<string, string>;
  /** Which signals were read: `http` (headers, cookies, HTML) or `browser` (plus js/dom). */
  method: 'http' | 'browser';
  timestamp: string;
}

/**
 * Fetches `url` once and matches the fingerprints against its header lines, cookies, HTML
 * and the elements of its `dom` selectors (cheerio); with `render` (and a browser), loads
 * it in Chromium and reads the same from the rendered page, plus `js` globals, element
 * properties and the bodies of the scripts it loaded.
 */
export async function checkTechstack(
  opts: TechstackOptions,
  deps: {
    http: SafeHttp;
    detector: TechDetector;
    browser?: RenderPages;
    /** The issuer of `opts.url`'s certificate when the caller reads it anyway (the audit's TLS check): no second handshake. */
    certIssuer?: Promise<string[]>;
  },
): Promise<TechstackReport> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const db = await deps.detector.ready();
  const browser = opts.render ? deps.browser : undefined;
  // The certificate's issuer is read on its own connection, alongside the page.
  const issuer = deps.certIssuer ?? certIssuerOf(opts.url, deps.http.policy, timeoutMs);
  const { finalUrl, status, headers, signals } = await readPage(opts, deps, db, timeoutMs).catch((err: unknown) => {
    throw targetError(err, new URL(opts.url).host);
  });
  signals.certIssuer = sameServer(opts.url, finalUrl) ? await issuer : await certIssuerOf(finalUrl, deps.http.policy, timeoutMs);
  const detection = await deps.detector.detect(signals);
  return {
    url: opts.url,
    final_url: finalUrl,
    status_code: status,
    technologies: detection.byCategory,
    technology_count: detection.list.length,
    headers: headerRecord(headers),
    method: browser ? 'browser' : 'http',
    timestamp: new Date().toISOString(),
  };
}

/** Same scheme, host and port: the same certificate. */
const sameServer = (a: string, b: string) => new URL(a).origin === new URL(b).origin;

/** Response headers as one string per name (`set-cookie` lines joined by newlines). */
export function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length) out['set-cookie'] = cookies.join('\n');
  return out;
}

/** The page's signals, from Chromium with `render` (and a browser), else from one fetch. */
async function readPage(
  opts: TechstackOptions,
  deps: { http: SafeHttp; browser?: RenderPages },
  db: FingerprintDb,
  timeoutMs: number,
): Promise<{ finalUrl: string; status: number; headers: Headers; signals: PageSignals }> {
  if (opts.render && deps.browser) {
    return deps.browser.withPage({ policy: deps.http.policy, timeoutMs: timeoutMs + 5_000 }, (page) =>
      browserSignals(page, opts.url, db, { timeoutMs, maxScriptBytes: opts.maxBytes ?? 5 * 1024 * 1024 }),
    );
  }
  const page = await fetchPage({ url: opts.url, maxBytes: opts.maxBytes, timeoutMs }, deps);
  return {
    finalUrl: page.finalUrl,
    status: page.status,
    headers: page.headers,
    signals: {
      url: page.finalUrl,
      headers: page.headerLines,
      cookies: cookiesFromSetCookie(page.setCookies),
      html: page.body,
      js: {},
      xhr: [],
      ...documentSignals(page.body, page.finalUrl, db.domQueries),
    },
  };
}
