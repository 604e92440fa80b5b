import { formatBytes, perfGrades } from '../perf/perf-grade.js';
import { checkRow, mean } from './check-row.js';
import { comparablePaths, type CheckDiff, type FailureItemDiff, type PerfItemDiff, type PerfMetric, type PerfSide, type Part } from './types.js';

/**
 * When a figure counts as worse (or better): a single page load is noisy, so a change must be
 * large both relatively and absolutely. A grade that drops is always a regression.
 */
export const perfTolerances: Record<Exclude<PerfMetric, 'grade'>, { ratio: number; absolute: number }> = {
  response_time_ms: { ratio: 1.5, absolute: 500 },
  transfer_size_bytes: { ratio: 1.2, absolute: 10_000 },
  requests: { ratio: 1.2, absolute: 2 },
};

/** Timings, bytes, sub-resource requests and grade per path, each with its delta. */
export function diffPerf(baseline: Record<string, Part<PerfSide>>, preview: Record<string, Part<PerfSide>>): CheckDiff {
  const items: Array<PerfItemDiff | FailureItemDiff> = [];
  const notes: string[] = [];
  const scores = { baseline: [] as number[], preview: [] as number[] };
  const totals = { baseline: { bytes: 0, ms: 0 }, preview: { bytes: 0, ms: 0 } };
  const grades = { baseline: [] as string[], preview: [] as string[] };
  for (const [path, b, p] of comparablePaths(baseline, preview, { items, notes })) {
    for (const [side, s] of [['baseline', b], ['preview', p]] as const) {
      scores[side].push(s.report.score);
      totals[side].bytes += s.report.transfer_size_bytes;
      totals[side].ms += s.report.response_time_ms;
      grades[side].push(s.report.grade);
    }
    const steps = perfGrades.indexOf(p.report.grade) - perfGrades.indexOf(b.report.grade);
    items.push({ path, metric: 'grade', baseline: b.report.grade, preview: p.report.grade, delta: steps, regression: steps > 0 });
    items.push(figure(path, 'response_time_ms', b.report.response_time_ms, p.report.response_time_ms));
    items.push(figure(path, 'transfer_size_bytes', b.report.transfer_size_bytes, p.report.transfer_size_bytes));
    items.push(figure(path, 'requests', b.requests, p.requests));
  }
  const describe = (side: 'baseline' | 'preview') =>
    grades[side].length ? `grade ${worstGrade(grades[side])}, ${Math.round(totals[side].ms)} ms, ${formatBytes(totals[side].bytes)}` : 'n/a';
  const worse = items.filter((i) => i.regression).map((i) => ('metric' in i ? label[i.metric] : 'failed'));
  const row = checkRow(
    'perf',
    {
      baseline: describe('baseline'),
      preview: describe('preview'),
      change: worse.length ? `worse: ${[...new Set(worse)].join(', ')}` : '',
      scores: { baseline: mean(scores.baseline), preview: mean(scores.preview) },
      items,
      notes,
    },
    (i) => 'metric' in i && isBetter(i),
  );
  return grades.baseline.length || row.regressions ? row : { ...row, status: 'unavailable' };
}

const label: Record<PerfMetric, string> = { grade: 'grade', response_time_ms: 'response time', transfer_size_bytes: 'bytes', requests: 'requests' };

function figure(path: string, metric: Exclude<PerfMetric, 'grade'>, baseline: number, preview: number): PerfItemDiff {
  const t = perfTolerances[metric];
  const delta = preview - baseline;
  return { path, metric, baseline, preview, delta, regression: delta > t.absolute && preview > baseline * t.ratio };
}

function isBetter(i: PerfItemDiff): boolean {
  if (i.metric === 'grade') return i.delta < 0;
  const t = perfTolerances[i.metric];
  return -i.delta > t.absolute && Number(i.baseline) > Number(i.preview) * t.ratio;
}

const worstGrade = (gs: string[]) => gs.reduce((a, b) => (perfGrades.indexOf(b as never) > perfGrades.indexOf(a as never) ? b : a));
