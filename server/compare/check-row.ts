import { isFailure, type CheckDiff, type CompareCheck, type FailureItemDiff, type ItemBase, type Part, type PartFailure } from './types.js';

/**
 * A row from its items: `regressed` when any item is a regression, `improved` when some are
 * improvements and none regress, `changed` when items differ without being either (a library
 * upgraded), `unchanged` otherwise.
 */
export function checkRow<I extends ItemBase>(
  check: CompareCheck,
  fields: Omit<CheckDiff<I>, 'check' | 'status' | 'regressions' | 'improvements' | 'notes'> & { notes?: string[] },
  isImprovement: (item: I) => boolean,
  isChange: (item: I) => boolean = () => false,
): CheckDiff<I> {
  const regressions = fields.items.filter((i) => i.regression).length;
  const improvements = fields.items.filter((i) => !i.regression && isImprovement(i)).length;
  const changed = fields.items.some((i) => !i.regression && isChange(i));
  const status = regressions ? 'regressed' : improvements ? 'improved' : changed ? 'changed' : 'unchanged';
  return { check, status, regressions, improvements, ...fields, notes: fields.notes ?? [] };
}

/**
 * When one side could not run the check: a failure only on the preview is a regression (it
 * worked in production); a failure on the baseline, or on both, leaves nothing to compare.
 */
export function failedRow(check: CompareCheck, baseline: Part<unknown>, preview: Part<unknown>, path: string | null = null): CheckDiff<FailureItemDiff> | null {
  const b = isFailure(baseline) ? baseline : null;
  const p = isFailure(preview) ? preview : null;
  if (!b && !p) return null;
  const words = (f: PartFailure | null) => (f ? `failed (${f.kind})` : 'ran');
  if (p && !b) {
    return {
      check, status: 'regressed', baseline: 'ran', preview: words(p), change: 'fails on the preview', regressions: 1, improvements: 0,
      scores: { baseline: null, preview: null },
      items: [{ kind: 'failed_on_preview', path, error: p.error, regression: true }],
      notes: [`preview: ${p.error}`],
    };
  }
  return {
    check, status: 'unavailable', baseline: words(b), preview: words(p), change: '', regressions: 0, improvements: 0,
    scores: { baseline: null, preview: null }, items: [],
    notes: [b ? `baseline: ${b.error}` : '', p ? `preview: ${p.error}` : ''].filter(Boolean),
  };
}

/** `1 technology`, `3 technologies`. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null);
