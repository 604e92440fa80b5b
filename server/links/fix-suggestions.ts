import type { DeadLinkReport, LinkItem, LinkSuggestion } from './report.js';
import { HostGate } from './host-gate.js';
import { LinkChecker } from './link-checker.js';
import type { LinkDeps } from './site-check.js';

/** Time the suggestion phase may take after the check, twins and archive lookups together. */
const SUGGEST_BUDGET_MS = 15_000;
/** Archive lookups at once: the archive is a shared public service, asked politely. */
const ARCHIVE_CONCURRENCY = 4;
/** Archive lookups per report; broken links past it get no archived suggestion. */
export const MAX_ARCHIVE_LOOKUPS = 100;

const PERMANENT = new Set([301, 308]);
const works = (kind: string) => kind === 'ok' || kind === 'redirect';

/** Kinds whose link is a web address that once worked somewhere: an archived copy can stand in. */
const archivable = (item: LinkItem) => /^https?:\/\//i.test(item.url) && (/^http_\d+$/.test(item.kind) || ['dns', 'refused', 'reset', 'timeout', 'tls', 'network', 'redirect_loop', 'too_many_redirects'].includes(item.kind));

/** `url` with the `#fragment` of `original` (a suggestion changes the address, never where in the page it points). */
export function keepFragment(url: string, original: string): string {
  const hash = original.indexOf('#');
  if (hash < 0) return url;
  const u = new URL(url);
  u.hash = original.slice(hash + 1);
  return u.href;
}

/** Every hop a 301/308 made by the server (not a page's own navigation): the old address is gone for good. */
export function permanentTarget(item: LinkItem): string | null {
  if (!works(item.kind) || !item.redirect_chain.length) return null;
  if (!item.redirect_chain.every((hop) => PERMANENT.has(hop.status) && !hop.client)) return null;
  return keepFragment(item.final_url, item.url);
}

/** The `https://` twin of an `http://` URL: same host, port, path and query. */
export function httpsTwin(url: string): string | null {
  const u = new URL(url);
  if (u.protocol !== 'http:') return null;
  u.protocol = 'https:';
  return u.href;
}

async function inPool<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) await run(items[next++]);
  }));
}

/**
 * Adds `suggestion` to the items whose fix is known: a permanent redirect's final URL; the
 * https twin of a working http link (one more request, through the result cache); for a broken
 * web link, the nearest Wayback snapshot (no lookup when the archive is off). `upgrades` keeps
 * only the working links that got a suggestion. Bounded in time; the archive failing changes
 * nothing but the suggestions.
 */
export async function withSuggestions(report: DeadLinkReport, deps: LinkDeps): Promise<DeadLinkReport> {
  const started = Date.now();
  const deadline = started + SUGGEST_BUDGET_MS;
  const signal = AbortSignal.timeout(SUGGEST_BUDGET_MS);
  const suggest = (item: LinkItem, s: LinkSuggestion) => {
    item.suggestion = s;
  };

  const httpCandidates: LinkItem[] = [...(report.upgrades ?? [])];
  for (const item of report.redirects) {
    const target = permanentTarget(item);
    if (target) suggest(item, { url: target, reason: 'permanent_redirect' });
    else if (works(item.kind)) httpCandidates.push(item);
  }

  // A checker of its own (site-check's newChecker would import this module back): the same cache, limits and dispatcher.
  const gate = new HostGate({ global: deps.concurrency ?? 64, perHost: deps.hostConcurrency ?? 64 });
  const checker = new LinkChecker({ dispatcher: deps.dispatcher, assertUrl: deps.assertUrl, gate, cache: deps.cache }, { timeoutMs: deps.timeoutMs, signal, deadline });
  const twins = inPool(
    httpCandidates.filter((i) => httpsTwin(i.url)),
    deps.concurrency ?? 64,
    async (item) => {
      const twin = httpsTwin(item.url.replace(/#.*/, ''));
      const result = twin ? await checker.check(twin).catch(() => null) : null;
      if (twin && result?.kind === 'ok') suggest(item, { url: keepFragment(twin, item.url), reason: 'https' });
    },
  );

  const archive = deps.archive;
  const lookups = archive
    ? inPool(report.broken_links.filter(archivable).slice(0, MAX_ARCHIVE_LOOKUPS), ARCHIVE_CONCURRENCY, async (item) => {
        if (signal.aborted) return;
        const snap = await archive.closest(item.url.replace(/#.*/, ''), signal);
        if (snap) suggest(item, { url: keepFragment(snap.url, item.url), reason: 'archived', archived_at: snap.archivedAt });
      })
    : Promise.resolve();

  await Promise.all([twins, lookups]);
  const upgrades = (report.upgrades ?? []).filter((i) => i.suggestion);
  const all = [...report.broken_links, ...report.redirects, ...upgrades];
  return {
    ...report,
    upgrades,
    summary: { ...report.summary, suggestions: new Set(all.filter((i) => i.suggestion)).size, duration_ms: report.summary.duration_ms + (Date.now() - started) },
  };
}
