import type { Outcome, SeoItem } from '../check-result.js';
import type { PageArtifacts } from '../page-artifacts.js';
import { parseRobots, type RobotsTxt } from '../robots-txt.js';

/** The crawlers Lighthouse asks about; `undefined` is any crawler (`robots`, `User-agent: *`). */
const CRAWLERS = [undefined, 'Googlebot', 'bingbot', 'DuckDuckBot', 'archive.org_bot'] as const;
type Crawler = (typeof CRAWLERS)[number];

const BLOCKING = new Set(['noindex', 'none']);
const UNAVAILABLE_AFTER = 'unavailable_after';

/** `unavailable_after: <date>` with a date in the past. */
function isExpired(directive: string): boolean {
  const [name, ...rest] = directive.split(':');
  if (rest.length === 0 || name !== UNAVAILABLE_AFTER) return false;
  const date = Date.parse(rest.join(':'));
  return !Number.isNaN(date) && date < Date.now();
}

/** `nofollow`, `noarchive` and the like leave the page indexable; `noindex`, `none` and an expired date do not. */
const blocksIndexing = (directives: string) =>
  directives.split(',').map((d) => d.toLowerCase().trim()).some((d) => BLOCKING.has(d) || isExpired(d));

/** The crawler an `X-Robots-Tag` value is scoped to (`googlebot: noindex`), if any. */
function headerCrawler(value: string): string | undefined {
  const m = /^([^,:]+):/.exec(value);
  return m && m[1].toLowerCase() !== UNAVAILABLE_AFTER ? m[1] : undefined;
}

/**
 * Lighthouse's is-crawlable: for each crawler, its own `<meta name="googlebot">` (else
 * `<meta name="robots">`), the `X-Robots-Tag` headers meant for all or for it, and
 * robots.txt (Google's matching: longest rule wins, `*`, `$`, the crawler's group or `*`).
 * Fails only when every crawler, the generic one included, is blocked; a page blocked for
 * some crawlers passes with a warning naming them.
 */
export function isCrawlable(a: PageArtifacts, robots: RobotsTxt): Outcome {
  const parsed = parseRobots(robots);
  const lines = robots.content?.split(/\r\n|\r|\n/) ?? [];
  const blockedFor = (crawler: Crawler): SeoItem[] => {
    const items: SeoItem[] = [];
    const meta = (crawler && a.meta.find((m) => m.name === crawler.toLowerCase())) || a.meta.find((m) => m.name === 'robots');
    if (meta && blocksIndexing(meta.content)) {
      items.push({ reason: `<meta name="${meta.name}"> says "${meta.content}"`, element: meta.element });
    }
    for (const h of a.headers) {
      if (h.name.toLowerCase() !== 'x-robots-tag') continue;
      const scope = headerCrawler(h.value);
      if (scope !== undefined && scope !== crawler) continue;
      const directives = crawler && h.value.startsWith(`${crawler}:`) ? h.value.replace(`${crawler}:`, '') : h.value.trim();
      if (blocksIndexing(directives)) items.push({ reason: 'the X-Robots-Tag header blocks indexing', header: `${h.name}: ${h.value}` });
    }
    if (parsed && parsed.isAllowed(a.documentUrl, crawler) === false) {
      const line = parsed.getMatchingLineNumber(a.documentUrl, crawler) ?? -1;
      items.push({
        reason: `robots.txt disallows ${new URL(a.documentUrl).pathname} for ${crawler ?? 'all crawlers'}`,
        robots_txt: { line, content: lines[line - 1] ?? '' },
        url: robots.url,
      });
    }
    return items;
  };

  const results = CRAWLERS.map((crawler) => ({ crawler, items: blockedFor(crawler) }));
  const blocked = results.filter((r) => r.items.length > 0);
  const generic = results[0].items;
  const pass = blocked.length < CRAWLERS.length;
  const named = blocked.map((r) => r.crawler).filter((c) => c !== undefined).join(', ') || 'crawlers without a group of their own';
  const value = {
    meta_robots: a.meta.find((m) => m.name === 'robots')?.content ?? null,
    x_robots_tag: a.headers.filter((h) => h.name.toLowerCase() === 'x-robots-tag').map((h) => h.value).join(', ') || null,
    blocked_crawlers: blocked.map((r) => r.crawler ?? '*'),
  };
  if (!pass) {
    return {
      pass,
      value,
      items: generic,
      message: `search engines may not index the page: ${generic.map((i) => i.reason).join('; ')}`,
      recommendation: 'Remove the noindex/none directives (meta robots, X-Robots-Tag) and the robots.txt rule that block the page, if it should appear in search results.',
    };
  }
  return {
    pass,
    value,
    message: blocked.length ? `indexable, but blocked for ${named}` : 'no directive or robots.txt rule blocks indexing',
    recommendation: '',
    warnings: blocked.length
      ? [`The following bot user agents are blocked from crawling: ${named}. The audit is otherwise passing, because at least one bot was explicitly allowed.`]
      : [],
  };
}
