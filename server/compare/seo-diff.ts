import type { SeoReport } from '../seo/seo-audit.js';
import { checkRow, mean, plural } from './check-row.js';
import { comparablePaths, type CheckDiff, type FailureItemDiff, type SeoItemDiff, type Part } from './types.js';

/**
 * SEO checks path by path: one that passes on the baseline and fails on the preview regressed
 * (a lost meta description); the reverse improved; one failing on both is production's
 * problem already. A path whose audit fails only on the preview is a regression too.
 */
export function diffSeo(baseline: Record<string, Part<SeoReport>>, preview: Record<string, Part<SeoReport>>): CheckDiff {
  const items: Array<SeoItemDiff | FailureItemDiff> = [];
  const notes: string[] = [];
  const scores = { baseline: [] as number[], preview: [] as number[] };
  for (const [path, b, p] of comparablePaths(baseline, preview, { items, notes })) {
    scores.baseline.push(b.score);
    scores.preview.push(p.score);
    for (const [name, after] of Object.entries(p.checks)) {
      const before = b.checks[name as keyof SeoReport['checks']];
      if (!before || (before.pass && after.pass)) continue;
      const kind = before.pass ? 'regressed' : after.pass ? 'improved' : 'still_failing';
      const message = kind === 'improved' ? before.message : after.message;
      items.push({ kind, path, check: name, weight: after.weight, message, regression: kind === 'regressed' });
    }
  }
  const baseScore = mean(scores.baseline);
  const previewScore = mean(scores.preview);
  const describe = (s: number | null) => (s === null ? 'n/a' : `score ${s}`);
  const regressed = items.filter((i) => i.regression).length;
  const improved = items.filter((i) => i.kind === 'improved').length;
  const row = checkRow(
    'seo',
    {
      baseline: describe(baseScore),
      preview: describe(previewScore),
      change: [regressed ? `${plural(regressed, 'check')} regressed` : '', improved ? `${improved} improved` : ''].filter(Boolean).join(', '),
      scores: { baseline: baseScore, preview: previewScore },
      items,
      notes,
    },
    (i) => 'kind' in i && i.kind === 'improved',
  );
  return scores.baseline.length || row.regressions ? row : { ...row, status: 'unavailable' };
}
