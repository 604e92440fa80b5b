import type { z } from 'zod';
import type { deadlinkReport, linkItem } from '../../../server/api/routes/deadlinks-schemas.js';
import { gatePasses, healthScore, type Gate } from '../../../server/links/report.js';

/** A report item, typed from the service's own schema (positions and every occurrence included). */
export type LinkItem = z.infer<typeof linkItem>;

/** The API's JSON report (`format=json`), typed from the service's own schema. */
export type DeadlinkReport = z.infer<typeof deadlinkReport>;

export interface Verdict {
  /** threshold or max_broken was given. */
  gated: boolean;
  /** The gate's pass, or, without a gate, no broken link. */
  pass: boolean;
  /** Whether the step fails (never with fail_on=never). */
  fail: boolean;
}

/**
 * Sets `pass` and `gate` from the action's gate, the service's one rule (`gatePasses`),
 * so a decimal threshold (99.5) works in every mode and a merged report is judged whole.
 */
export function applyGate(report: DeadlinkReport, gate: Gate): DeadlinkReport {
  const { pass: _pass, gate: _gate, ...rest } = report;
  const pass = gatePasses(report.summary.health_score, report.broken_count, gate);
  if (pass === undefined) return rest;
  return { ...rest, pass, gate: { threshold: gate.threshold, max_broken: gate.maxBroken } };
}

export function verdict(report: DeadlinkReport, failOn: 'gate' | 'never'): Verdict {
  const gated = report.pass !== undefined;
  const pass = report.pass ?? report.broken_count === 0;
  return { gated, pass, fail: failOn !== 'never' && !pass };
}

/**
 * One report from the reports of several calls (a large set of documents sent in parts):
 * items of the same URL become one with every place; counts add up, less the links that
 * two calls both listed; the health score is recomputed. A working link that two calls
 * both checked is counted twice (the reports do not list working links), so the checked
 * count may be slightly high: the calls keep a folder's files together to make that rare.
 */
export function mergeReports(reports: DeadlinkReport[]): DeadlinkReport {
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
  const broken = merge(reports.map((r) => r.broken_links));
  const redirects = merge(reports.map((r) => r.redirects));
  const botBlocked = merge(reports.map((r) => r.bot_blocked));
  const warnings = merge(reports.map((r) => r.warnings));
  const sum = (f: (r: DeadlinkReport) => number) => reports.reduce((n, r) => n + f(r), 0);
  // Each call lists what it checked: a link checked by two calls counts once. Without the
  // lists, only the links listed in the report (broken, redirects, …) can be told apart.
  const lists = reports.every((r) => r.checked_urls) ? [...new Set(reports.flatMap((r) => r.checked_urls ?? []))].sort() : undefined;
  const checked = lists ? lists.length : sum((r) => r.total_links_checked) - repeated;
  const merged: DeadlinkReport = {
    ...first,
    pages_crawled: sum((r) => r.pages_crawled),
    total_links_checked: checked,
    broken_count: broken.length,
    broken_links: broken,
    redirects,
    bot_blocked: botBlocked,
    warnings,
    summary: {
      health_score: healthScore(broken.length, checked),
      broken_images: broken.filter((i) => i.is_image).length,
      redirects_found: redirects.length,
      bot_blocked: botBlocked.length,
      warnings: warnings.length,
      internal_links: sum((r) => r.summary.internal_links),
      external_links: sum((r) => r.summary.external_links),
      skipped_links: sum((r) => r.summary.skipped_links),
      cached_results: sum((r) => r.summary.cached_results),
      rendered_pages: sum((r) => r.summary.rendered_pages),
      duration_ms: sum((r) => r.summary.duration_ms),
      skipped_documents: sum((r) => r.summary.skipped_documents ?? 0),
    },
    checked_at: reports.at(-1)?.checked_at ?? first.checked_at,
  };
  if (lists) merged.checked_urls = lists;
  else delete merged.checked_urls;
  if (reports.some((r) => r.timed_out)) merged.timed_out = true;
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
