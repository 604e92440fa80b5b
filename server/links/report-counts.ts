import type { DeadLinkReport, Gate, LinkItem } from './report.js';

/**
 * The one definition of each count of a dead-link report, for the service's reports and for
 * a report merged from several calls (the deadlinks action's): links checked (distinct
 * targets, and each distinct fragment judged), broken links (targets) and their places, the
 * health score and the gate.
 */

/** health_score = 100 × (1 − broken ÷ checked), one decimal; 100 when nothing was checked. */
export function healthScore(broken: number, checked: number): number {
  if (checked <= 0) return 100;
  return Math.round(1000 * (1 - Math.min(broken, checked) / checked)) / 10;
}

/** `pass` when every given gate holds; undefined when no gate was given. */
export function gatePasses(health: number, broken: number, gate: Gate): boolean | undefined {
  if (gate.threshold === undefined && gate.maxBroken === undefined) return undefined;
  return (gate.threshold === undefined || health >= gate.threshold) && (gate.maxBroken === undefined || broken <= gate.maxBroken);
}

/** A report's lists of items. */
export type ReportLists = Pick<DeadLinkReport, 'broken_links' | 'redirects' | 'bot_blocked' | 'warnings' | 'not_checked'>;

/** What a report counts besides its lists. */
export interface ReportTotals {
  /** Links checked: distinct targets, and distinct fragments judged; `internal + external`. */
  checked: number;
  internal: number;
  external: number;
  skipped: number;
  cached: number;
  renderedPages: number;
  durationMs: number;
  /** Documents mode only. */
  skippedDocuments?: number;
}

/**
 * A report's counts and health score from its lists and totals: the one rule for the
 * service's reports and for a report merged from several calls (the deadlinks action's).
 */
export function reportCounts(lists: ReportLists, totals: ReportTotals): Pick<DeadLinkReport, 'total_links_checked' | 'broken_count' | 'summary'> {
  const broken = lists.broken_links.length;
  return {
    total_links_checked: totals.checked,
    broken_count: broken,
    summary: {
      health_score: healthScore(broken, totals.checked),
      broken_places: placeCount(lists.broken_links),
      broken_images: lists.broken_links.filter((i) => i.is_image).length,
      redirects_found: lists.redirects.length,
      bot_blocked: lists.bot_blocked.length,
      warnings: lists.warnings.length,
      internal_links: totals.internal,
      external_links: totals.external,
      skipped_links: totals.skipped,
      cached_results: totals.cached,
      rendered_pages: totals.renderedPages,
      not_checked: lists.not_checked.length,
      duration_ms: totals.durationMs,
      ...(totals.skippedDocuments !== undefined ? { skipped_documents: totals.skippedDocuments } : {}),
    },
  };
}

/** The report judged by `gate` (`gatePasses`): `pass` and `gate` when one was given, neither otherwise. */
export function withGate(report: DeadLinkReport, gate: Gate): DeadLinkReport {
  const { pass: _pass, gate: _gate, ...rest } = report;
  const pass = gatePasses(report.summary.health_score, report.broken_count, gate);
  if (pass === undefined) return rest;
  return {
    ...rest,
    pass,
    gate: {
      ...(gate.threshold !== undefined ? { threshold: gate.threshold } : {}),
      ...(gate.maxBroken !== undefined ? { max_broken: gate.maxBroken } : {}),
    },
  };
}

/** Places of the items: each occurrence in a file, or each page it is on. */
export const placeCount = (items: Array<Pick<LinkItem, 'locations' | 'found_on'>>): number => items.reduce((n, i) => n + (i.locations?.length || i.found_on.length || 1), 0);
