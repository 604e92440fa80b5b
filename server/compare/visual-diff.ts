import { checkRow, plural } from './check-row.js';
import { isFailure, type CheckDiff, type FailureItemDiff, type Part, type VisualItemDiff, type VisualResult } from './types.js';

/** The default gate: more than 0.1 % of the pixels changed is a visual regression to review. */
export const DEFAULT_MAX_CHANGED_RATIO = 0.001;

/**
 * Each path × viewport rendered on both sides: a change over `maxChangedRatio` is a
 * regression (a moved button), since a picture cannot say whether the change was meant; a
 * reviewer accepts it by merging with fail_on: never or a looser gate.
 */
export function diffVisual(results: Array<Part<VisualResult> & { path: string; width: number; height: number }>, maxChangedRatio: number): CheckDiff {
  const items: Array<VisualItemDiff | FailureItemDiff> = [];
  const notes: string[] = [];
  for (const r of results) {
    if (isFailure(r)) {
      // The renderer names the side that failed; one that renders in production but not on the preview is a regression.
      if (/^candidate_url:/.test(r.error)) items.push({ kind: 'failed_on_preview', path: r.path, error: r.error, regression: true });
      notes.push(`${r.path} at ${r.width}×${r.height}: ${r.error}`);
      continue;
    }
    items.push({ ...r, max_changed_ratio: maxChangedRatio, regression: r.changed_ratio > maxChangedRatio });
  }
  const compared = items.filter((i) => 'changed_ratio' in i).length;
  const changed = items.filter((i) => i.regression).length;
  const row = checkRow('visual', {
    baseline: plural(compared, 'screenshot'),
    preview: plural(compared, 'screenshot'),
    change: changed ? `${changed} of ${compared} changed` : '',
    scores: { baseline: null, preview: null },
    items,
    notes,
  }, () => false);
  return compared || row.regressions ? row : { ...row, status: 'unavailable' };
}
