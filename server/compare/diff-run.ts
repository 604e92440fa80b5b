import { diffLinks } from './links-diff.js';
import { diffPerf } from './perf-diff.js';
import { diffSeo } from './seo-diff.js';
import { diffTechstack } from './techstack-diff.js';
import { diffTls } from './tls-diff.js';
import { diffVisual } from './visual-diff.js';
import type { CompareInput } from './compare-report.js';
import type { CompareRun } from './compare-run.js';
import type { CheckDiff } from './types.js';

const missing = { error: 'the check did not run', kind: 'unavailable' };

/** One row per chosen check, in the order of `input.checks`. */
export function diffRun(input: CompareInput, run: CompareRun): CheckDiff[] {
  const { baseline: b, preview: p } = run;
  return input.checks.map((check) => {
    switch (check) {
      case 'links':
        return diffLinks(b.links ?? missing, p.links ?? missing, { baseline: input.baseline_url, preview: input.preview_url });
      case 'seo':
        return diffSeo(b.seo ?? {}, p.seo ?? {});
      case 'perf':
        return diffPerf(b.perf ?? {}, p.perf ?? {});
      case 'techstack':
        return diffTechstack(b.techstack ?? missing, p.techstack ?? missing);
      case 'tls':
        return diffTls(b.tls ?? null, p.tls ?? null);
      case 'visual':
        return diffVisual(run.visual, input.max_changed_ratio);
    }
  });
}
