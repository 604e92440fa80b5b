import { isFailure, type Part, type PartFailure } from '../errors/part-failure.js';
import type { DeadLinkReport } from '../links/report.js';
import type { PerfReport } from '../perf/perf-check.js';
import type { SeoReport } from '../seo/seo-audit.js';
import type { TechstackReport } from '../techstack/techstack-check.js';
import type { TlsReport } from '../tls/tls-check.js';

/** A check on one side: its report, or why it could not run there. */
export { isFailure, type Part, type PartFailure };

export const compareChecks = ['links', 'seo', 'perf', 'techstack', 'tls', 'visual'] as const;
export type CompareCheck = (typeof compareChecks)[number];


/**
 * The paths both sides could check, as [path, baseline, preview]. A path that failed on one
 * side is not compared: a note says why, and when only the preview failed it is a
 * `failed_on_preview` regression in `items`.
 */
export function* comparablePaths<T>(
  baseline: Record<string, Part<T>>,
  preview: Record<string, Part<T>>,
  out: { items: { push(item: FailureItemDiff): unknown }; notes: string[] },
): Generator<[string, T, T]> {
  for (const path of Object.keys(preview)) {
    const b = baseline[path];
    const p = preview[path];
    if (isFailure(p) && !isFailure(b)) out.items.push({ kind: 'failed_on_preview', path, error: p.error, regression: true });
    if (isFailure(b) || isFailure(p)) {
      out.notes.push(`${path}: not compared (${[b, p].filter(isFailure).map((f) => f.error).join('; ')})`);
      continue;
    }
    yield [path, b, p];
  }
}

/** A check's result on one deployment; per-path checks hold one entry per path. */
export interface PerfSide {
  report: PerfReport;
  /** Sub-resources the page's HTML asks for (scripts, style sheets, images, frames, media). */
  requests: number;
}

export interface SideResults {
  links?: Part<DeadLinkReport>;
  seo?: Record<string, Part<SeoReport>>;
  perf?: Record<string, Part<PerfSide>>;
  techstack?: Part<TechstackReport>;
  /** Null when the side is not served over https (nothing to grade). */
  tls?: Part<TlsReport> | null;
}

/** One path at one viewport, rendered on both sides and compared pixel by pixel. */
export interface VisualResult {
  path: string;
  width: number;
  height: number;
  changed_ratio: number;
  changed_pixels: number;
  images: { baseline: string; candidate: string; diff: string };
}

/** Every item of a difference says whether it makes the preview worse than the baseline. */
export interface ItemBase {
  regression: boolean;
}

export interface LinkItemDiff extends ItemBase {
  kind: 'new_broken' | 'fixed' | 'still_broken';
  url: string;
  /** HTTP status on the side where it is broken (the preview, or the baseline for `fixed`). */
  status: number | null;
  error_kind: string;
  found_on: string[];
}

export interface SeoItemDiff extends ItemBase {
  kind: 'regressed' | 'improved' | 'still_failing';
  path: string;
  check: string;
  weight: number;
  /** What the preview's check says (the baseline's for `improved`). */
  message: string;
}

export type PerfMetric = 'grade' | 'response_time_ms' | 'transfer_size_bytes' | 'requests';

export interface PerfItemDiff extends ItemBase {
  path: string;
  metric: PerfMetric;
  baseline: number | string;
  preview: number | string;
  /** preview − baseline for numbers; grade steps (positive = worse) for the grade. */
  delta: number;
}

export interface TechItemDiff extends ItemBase {
  kind: 'added' | 'removed' | 'version_changed';
  name: string;
  baseline_version: string | null;
  preview_version: string | null;
}

export interface TlsItemDiff extends ItemBase {
  kind: 'grade_changed' | 'failed_on_preview' | 'fixed_on_preview';
  baseline_grade: string | null;
  preview_grade: string | null;
  message: string;
}

export interface VisualItemDiff extends ItemBase, VisualResult {
  /** The gate the ratio was held to. */
  max_changed_ratio: number;
}

/** A check that ran on the baseline but failed on the preview is a regression in itself. */
export interface FailureItemDiff extends ItemBase {
  kind: 'failed_on_preview';
  path: string | null;
  error: string;
}

export type CheckStatus = 'regressed' | 'changed' | 'improved' | 'unchanged' | 'unavailable';

/** One row of the report: a check on both sides and what changed. */
export type AnyItem = LinkItemDiff | SeoItemDiff | PerfItemDiff | TechItemDiff | TlsItemDiff | VisualItemDiff | FailureItemDiff;

export interface CheckDiff<I extends ItemBase = AnyItem> {
  check: CompareCheck;
  status: CheckStatus;
  /** The baseline in a few words (`2 broken of 40`, `grade A, 120 ms`). */
  baseline: string;
  preview: string;
  /** What changed in a few words; empty when nothing did. */
  change: string;
  regressions: number;
  improvements: number;
  /** Score 0–100 of each side where the check has one (links, seo, perf, tls), for the health score. */
  scores: { baseline: number | null; preview: number | null };
  items: I[];
  /** Why the check could not be compared (`unavailable`), or notes. */
  notes: string[];
}
