import type { SafeHttp } from '../net/safe-http.js';
import { fetchPage } from './page-fetch.js';
import { pageSignals } from './page-signals.js';
import type { DetectedTechnology, TechDetector } from './tech-detector.js';

export interface TechstackOptions {
  url: string;
  /** @default 5242880 */
  maxBytes?: number;
  /** @default 15000 */
  timeoutMs?: number;
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

/** Fetches `url` once and matches the fingerprints against its headers, cookies and HTML. */
export async function checkTechstack(opts: TechstackOptions, deps: { http: SafeHttp; detector: TechDetector }): Promise<TechstackReport> {
  const [page] = await Promise.all([
    fetchPage({ url: opts.url, maxBytes: opts.maxBytes, timeoutMs: opts.timeoutMs }, deps),
    deps.detector.ready(),
  ]);
  const signals = pageSignals({ url: page.finalUrl, headers: page.headers, setCookies: page.setCookies, html: page.body });
  const detection = await deps.detector.detect(signals);
  return {
    url: opts.url,
    final_url: page.finalUrl,
    status_code: page.status,
    technologies: detection.byCategory,
    technology_count: detection.list.length,
    headers: headerRecord(page.headers),
    method: 'http',
    timestamp: new Date().toISOString(),
  };
}

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
