import type { DeadLinkReport, LinkItem } from '../../../server/links/report.js';
import { reportCounts, type ReportLists } from '../../../server/links/report-counts.js';

export interface Verdict {
  /** threshold or max_broken was given. */
  gated: boolean;
  /** The gate's pass, or, without a gate, no broken link. */
  pass: boolean;
  /** Whether the step fails (never with fail_on=never). */
  fail: boolean;
}

export function verdict(report: DeadLinkReport, failOn: 'gate' | 'never'): Verdict {
  const gated = report.pass !== undefined;
  const pass = report.pass ?? report.broken_count === 0;
  return { gated, pass, fail: failOn !== 'never' && !pass };
}

/**
 * One report from the reports of several calls (a large set of documents sent in parts),
 * counted as one call would count it: items of the same URL become one with every place;
 * links checked, internal ones and skipped ones are the union of the calls' lists
 * (`list_checked`), so a link found in files of two calls counts once; the summary and health
 * score come from the service's own rule (`reportCounts`). Without the lists (an older API),
 * only the links the reports list can be told apart.
 */
export function mergeReports(reports: DeadLinkReport[]): DeadLinkReport {
  if (reports.length === 1) return reports[0];
  const [first] = reports;
  let repeated = 0;
  const merge = (lists: LinkItem[][]) => {
    const byUrl = new Map<string, LinkItem>();
    for (const item of lists.flat()) {
      const seen = byUrl.get(item.url);
      if (seen) repeated++;
      byUrl.set(item.url, seen ? combine(seen, item) : item);
    }
    return [...byUrl.values()].sort((a, b) => a.url.localeCompare(b.url));
  };
  const lists: ReportLists = {
    broken_links: merge(reports.map((r) => r.broken_links)),
    redirects: merge(reports.map((r) => r.redirects)),
    bot_blocked: merge(reports.map((r) => r.bot_blocked)),
    warnings: merge(reports.map((r) => r.warnings)),
    not_checked: merge(reports.map((r) => r.not_checked ?? [])),
  };
  const sum = (f: (r: DeadLinkReport) => number) => reports.reduce((n, r) => n + f(r), 0);
  const union = (f: (r: DeadLinkReport) => string[] | undefined) => (reports.every((r) => f(r)) ? [...new Set(reports.flatMap((r) => f(r) ?? []))].sort() : undefined);
  const checkedUrls = union((r) => r.checked_urls);
  const internalUrls = union((r) => r.checked_internal_urls);
  const skippedUrls = union((r) => r.skipped_urls);
  const checked = checkedUrls ? checkedUrls.length : sum((r) => r.total_links_checked) - repeated;
  const internal = Math.min(checked, internalUrls ? internalUrls.length : sum((r) => r.summary.internal_links));
  const counts = reportCounts(lists, {
    checked,
    internal,
    external: checked - internal,
    skipped: skippedUrls ? skippedUrls.length : sum((r) => r.summary.skipped_links),
    cached: sum((r) => r.summary.cached_results),
    renderedPages: sum((r) => r.summary.rendered_pages),
    durationMs: sum((r) => r.summary.duration_ms),
    skippedDocuments: reports.some((r) => r.summary.skipped_documents !== undefined) ? sum((r) => r.summary.skipped_documents ?? 0) : undefined,
  });
  const { checked_urls: _c, checked_internal_urls: _i, skipped_urls: _s, ...rest } = first;
  const merged: DeadLinkReport = {
    ...rest,
    pages_crawled: sum((r) => r.pages_crawled),
    ...counts,
    ...lists,
    checked_at: reports.at(-1)?.checked_at ?? first.checked_at,
  };
  if (checkedUrls) merged.checked_urls = checkedUrls;
  if (internalUrls) merged.checked_internal_urls = internalUrls;
  if (skippedUrls) merged.skipped_urls = skippedUrls;
  if (reports.some((r) => r.timed_out)) merged.timed_out = true;
  // suggest_fixes: the https upgrades of every call, and the items with a suggestion among the merged lists.
  if (reports.some((r) => r.upgrades)) merged.upgrades = merge(reports.map((r) => r.upgrades ?? []));
  if (reports.some((r) => r.summary.suggestions !== undefined)) {
    merged.summary.suggestions = [...lists.broken_links, ...lists.redirects, ...(merged.upgrades ?? [])].filter((i) => i.suggestion).length;
  }
  return merged;
}

/** One item from two reports of the same URL: every page, line and location of both. */
function combine(a: LinkItem, b: LinkItem): LinkItem {
  const locations = [...(a.locations ?? []), ...(b.locations ?? [])]
    .filter((l, i, all) => all.findIndex((m) => m.file === l.file && m.line === l.line && m.column === l.column) === i)
    .sort((x, y) => x.file.localeCompare(y.file) || x.line - y.line || (x.column ?? 0) - (y.column ?? 0));
  const lines = [...new Set([...(a.lines ?? []), ...(b.lines ?? [])])].sort((x, y) => x - y);
  const out: LinkItem = { ...a, found_on: [...new Set([...a.found_on, ...b.found_on])].sort() };
  if (locations.length) {
    out.locations = locations;
    out.file = locations[0].file;
    out.line = locations[0].line;
    out.column = locations[0].column;
  }
  if (lines.length) out.lines = lines;
  return out;
}
