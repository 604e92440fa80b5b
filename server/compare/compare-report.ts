import { mean } from './check-row.js';
import type { CheckDiff, CompareCheck } from './types.js';

export type Verdict = 'regressed' | 'changed' | 'improved' | 'unchanged';

/** What was compared. */
export interface CompareInput {
  baseline_url: string;
  preview_url: string;
  paths: string[];
  checks: CompareCheck[];
  viewports: Array<{ width: number; height: number }>;
  max_changed_ratio: number;
}

/** One past run of a site, for the trend. */
export interface HealthPoint {
  at: string;
  baseline: number | null;
  preview: number | null;
}

export interface CompareReport extends CompareInput {
  verdict: Verdict;
  /** One sentence: the regressions and where, or that there are none. */
  headline: string;
  regressions: number;
  improvements: number;
  /**
   * Health score per side, 0–100: the mean of the scores of the checks that scored both
   * sides (links: dead-link health score; SEO: mean score of the paths; performance: mean
   * score of the paths; TLS: A+ 100, A 95, B 80, C 60, F 0). Tech stack and visual changes
   * are differences, not qualities of one side, and do not count. Null when no check scored.
   */
  health: { baseline: number | null; preview: number | null; delta: number | null };
  results: CheckDiff[];
  /** The site's health over its last runs for this key, oldest first, with its picture. */
  trend: { image_url: string | null; runs: HealthPoint[] };
  started_at: string;
  completed_at: string;
}

export const checkTitles: Record<CompareCheck, string> = {
  links: 'Broken links',
  seo: 'SEO',
  perf: 'Performance',
  techstack: 'Tech stack',
  tls: 'TLS',
  visual: 'Visual',
};

/** The report without its trend (the job adds the site's history once stored). */
export function buildReport(input: CompareInput, results: CheckDiff[], startedAt: Date): Omit<CompareReport, 'trend'> {
  const regressions = results.reduce((n, r) => n + r.regressions, 0);
  const improvements = results.reduce((n, r) => n + r.improvements, 0);
  const scored = results.filter((r) => r.scores.baseline !== null && r.scores.preview !== null);
  const baseline = mean(scored.map((r) => r.scores.baseline ?? 0));
  const preview = mean(scored.map((r) => r.scores.preview ?? 0));
  const verdict: Verdict = regressions ? 'regressed' : improvements ? 'improved' : results.some((r) => r.status === 'changed') ? 'changed' : 'unchanged';
  return {
    ...input,
    verdict,
    headline: headline(verdict, results),
    regressions,
    improvements,
    health: { baseline, preview, delta: baseline !== null && preview !== null ? Math.round((preview - baseline) * 10) / 10 : null },
    results,
    started_at: startedAt.toISOString(),
    completed_at: new Date().toISOString(),
  };
}

function headline(verdict: Verdict, results: CheckDiff[]): string {
  // Within a sentence: lower case, but acronyms stay as they are.
  const where = (status: CheckDiff['status']) => results.filter((r) => r.status === status).map((r) => checkTitles[r.check].replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase()));
  const n = results.reduce((a, r) => a + r.regressions, 0);
  if (verdict === 'regressed') return `${n} regression${n === 1 ? '' : 's'} in ${where('regressed').join(', ')}`;
  if (verdict === 'improved') return `No regressions; improvements in ${where('improved').join(', ')}`;
  if (verdict === 'changed') return `No regressions; changes to review in ${where('changed').join(', ')}`;
  return 'No differences';
}
