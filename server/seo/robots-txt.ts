import robotsParserModule from 'robots-parser';
import type { SafeHttp } from '../net/safe-http.js';
import { fetchPage } from '../techstack/page-fetch.js';
import type { RobotsLine } from './check-result.js';

/** Lighthouse's RobotsTxt artifact: the content only for a 2xx answer; status null when the fetch failed. */
export interface RobotsTxt {
  url: string;
  status: number | null;
  content: string | null;
  error?: string;
}

/** Google reads the first 500 KiB of a robots.txt. */
const ROBOTS_MAX_BYTES = 500 * 1024;

/** Fetches `/robots.txt` of the page's origin through the target-safety client, following redirects. */
export async function fetchRobotsTxt(pageUrl: string, http: SafeHttp): Promise<RobotsTxt> {
  const url = new URL('/robots.txt', pageUrl).href;
  try {
    const p = await fetchPage({ url, timeoutMs: 5_000, maxBytes: ROBOTS_MAX_BYTES }, { http });
    return { url, status: p.status, content: p.status >= 200 && p.status <= 299 ? p.body : null };
  } catch (err) {
    return { url, status: null, content: null, error: (err as Error).message };
  }
}

export interface RobotsTxtError extends RobotsLine {
  message: string;
}

/** The package is CommonJS exporting the function itself; its typings describe an ES default export. */
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The robots.txt read by Google's matching rules (robots-parser); undefined without content. */
export const parseRobots = (robots: RobotsTxt) => (robots.content ? robotsParser(robots.url, robots.content) : undefined);

/** The sitemaps robots.txt names that a crawler can fetch: absolute http(s) URLs, in order. */
export function robotsSitemaps(robots: RobotsTxt): string[] {
  return (parseRobots(robots)?.getSitemaps() ?? []).flatMap((value) => {
    const url = URL.parse(value);
    return url && (url.protocol === 'https:' || url.protocol === 'http:') ? [url.href] : [];
  });
}

const GROUP_MEMBERS = new Set(['allow', 'disallow']);
const KNOWN_DIRECTIVES = new Set([
  'user-agent', 'disallow', // the standard
  'allow', 'sitemap', // universally supported
  'crawl-delay', // Yahoo, Bing, Yandex
  'clean-param', 'host', // Yandex
  'request-rate', 'visit-time', 'noindex', 'content-signal', // used in the wild
]);
const SITEMAP_PROTOCOLS = new Set(['https:', 'http:', 'ftp:']);

/**
 * Lighthouse's robots.txt validation, line by line: every line must be a comment, blank,
 * or `directive: value` with a known directive; `allow`/`disallow` need a `user-agent`
 * before them, a pattern starting with `/` or `*` and `$` only at its end; `sitemap` an
 * absolute http(s)/ftp URL; `user-agent` a value.
 */
export function validateRobotsTxt(content: string): RobotsTxtError[] {
  const errors: RobotsTxtError[] = [];
  let inGroup = false;
  content.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const found = { line: index + 1, content: raw };
    let directive: string;
    try {
      const parsed = parseLine(raw);
      if (!parsed) return;
      directive = parsed.directive;
    } catch (err) {
      errors.push({ ...found, message: (err as Error).message });
      return;
    }
    if (directive === 'user-agent') inGroup = true;
    else if (!inGroup && GROUP_MEMBERS.has(directive)) errors.push({ ...found, message: 'No user-agent specified' });
  });
  return errors;
}

function parseLine(raw: string): { directive: string; value: string } | null {
  const hash = raw.indexOf('#');
  const line = (hash === -1 ? raw : raw.slice(0, hash)).trim();
  if (!line) return null;
  const colon = line.indexOf(':');
  if (colon === -1) throw new Error('Syntax not understood');
  const directive = line.slice(0, colon).trim().toLowerCase();
  const value = line.slice(colon + 1).trim();
  verifyDirective(directive, value);
  return { directive, value };
}

function verifyDirective(directive: string, value: string): void {
  if (!KNOWN_DIRECTIVES.has(directive)) throw new Error('Unknown directive');
  if (directive === 'sitemap') {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error('Invalid sitemap URL');
    }
    if (!SITEMAP_PROTOCOLS.has(url.protocol)) throw new Error('Invalid sitemap URL protocol');
  }
  if (directive === 'user-agent' && !value) throw new Error('No user-agent specified');
  if (GROUP_MEMBERS.has(directive)) {
    if (value !== '' && value[0] !== '/' && value[0] !== '*') throw new Error('Pattern should either be empty, start with "/" or "*"');
    const dollar = value.indexOf('$');
    if (dollar !== -1 && dollar !== value.length - 1) throw new Error('"$" should only be used at the end of the pattern');
  }
}
