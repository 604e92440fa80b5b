import { tlsGrades } from '../tls/tls-grade.js';
import type { TlsReport } from '../tls/tls-check.js';
import { checkRow } from './check-row.js';
import { isFailure, type CheckDiff, type Part, type TlsItemDiff } from './types.js';

/** Score of a TLS grade for the health score. */
export const tlsGradeScore: Record<string, number> = { 'A+': 100, A: 95, B: 80, C: 60, F: 0 };

/**
 * The TLS grade on both sides. A lower grade is a regression, and so is a handshake that
 * fails on the preview but works on the baseline. A side not served over https (null) has
 * nothing to grade.
 */
export function diffTls(baseline: Part<TlsReport> | null, preview: Part<TlsReport> | null): CheckDiff {
  const grade = (s: Part<TlsReport> | null) => (s && !isFailure(s) ? s.grade : null);
  const describe = (s: Part<TlsReport> | null) => (s === null ? 'not https' : isFailure(s) ? `failed (${s.kind})` : `grade ${s.grade}`);
  const b = grade(baseline);
  const p = grade(preview);
  const items: TlsItemDiff[] = [];
  if (b && p && b !== p) {
    const worse = tlsGrades.indexOf(p as never) > tlsGrades.indexOf(b as never);
    items.push({ kind: 'grade_changed', baseline_grade: b, preview_grade: p, message: `grade ${b} → ${p}`, regression: worse });
  } else if (b && isFailure(preview)) {
    items.push({ kind: 'failed_on_preview', baseline_grade: b, preview_grade: null, message: preview.error, regression: true });
  } else if (p && isFailure(baseline)) {
    items.push({ kind: 'fixed_on_preview', baseline_grade: null, preview_grade: p, message: baseline.error, regression: false });
  }
  const row = checkRow(
    'tls',
    {
      baseline: describe(baseline),
      preview: describe(preview),
      change: items.map((i) => i.message).join(''),
      scores: { baseline: b ? tlsGradeScore[b] : null, preview: p ? tlsGradeScore[p] : null },
      items,
      notes: [baseline, preview].filter(isFailure).map((f) => f.error),
    },
    (i) => i.kind === 'fixed_on_preview' || (i.kind === 'grade_changed' && !i.regression),
  );
  // Nothing graded on either side (two http:// deployments): nothing to compare.
  return !b && !p && !items.length ? { ...row, status: 'unavailable', scores: { baseline: null, preview: null } } : row;
}
