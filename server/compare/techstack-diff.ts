import type { TechstackReport } from '../techstack/techstack-check.js';
import { compareVersionsDesc } from '../techstack/version-order.js';
import { checkRow, failedRow, plural } from './check-row.js';
import type { CheckDiff, Part, TechItemDiff } from './types.js';

/**
 * Technologies added, removed or at another version. Only a version that goes down is a
 * regression: an added or removed library, or an upgrade, is a change a reviewer should see
 * (⚠️), not something the preview broke.
 */
export function diffTechstack(baseline: Part<TechstackReport>, preview: Part<TechstackReport>): CheckDiff {
  const failed = failedRow('techstack', baseline, preview);
  if (failed) return failed;
  const before = byName(baseline as TechstackReport);
  const after = byName(preview as TechstackReport);
  const items: TechItemDiff[] = [];
  for (const [name, v] of after) {
    if (!before.has(name)) items.push({ kind: 'added', name, baseline_version: null, preview_version: v, regression: false });
    else if (before.get(name) !== v && v !== null && before.get(name) !== null) {
      const was = before.get(name) ?? null;
      // Sorting highest first puts the baseline first when the preview's version is lower.
      const downgrade = compareVersionsDesc(v, was ?? '') > 0;
      items.push({ kind: 'version_changed', name, baseline_version: was, preview_version: v, regression: downgrade });
    }
  }
  for (const [name, v] of before) if (!after.has(name)) items.push({ kind: 'removed', name, baseline_version: v, preview_version: null, regression: false });
  const count = (m: Map<string, unknown>) => plural(m.size, 'technology', 'technologies');
  const kinds = (k: TechItemDiff['kind']) => items.filter((i) => i.kind === k).length;
  return checkRow(
    'techstack',
    {
      baseline: count(before),
      preview: count(after),
      change: [
        kinds('added') ? `${kinds('added')} added` : '',
        kinds('removed') ? `${kinds('removed')} removed` : '',
        kinds('version_changed') ? `${plural(kinds('version_changed'), 'version')} changed` : '',
      ].filter(Boolean).join(', '),
      scores: { baseline: null, preview: null },
      items,
    },
    () => false,
    () => true,
  );
}

/** Name → version (null when none was seen); a technology listed in several categories counts once. */
function byName(r: TechstackReport): Map<string, string | null> {
  const m = new Map<string, string | null>();
  for (const techs of Object.values(r.technologies)) for (const t of techs) m.set(t.name, t.version);
  return m;
}
