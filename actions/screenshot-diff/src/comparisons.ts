import type { ApiClient } from '../../shared/src/api-client.js';
import type { ScreenshotDiffSettings, Viewport } from './settings.js';

/** POST /api/screenshot/diff's reply. */
export interface DiffReply {
  id: string;
  changed_pixels: number;
  changed_ratio: number;
  width: number;
  height: number;
  baseline_status: number | null;
  candidate_status: number | null;
  images: { baseline: string; candidate: string; diff: string };
}

/** One path at one viewport: the API's diff, or why it could not be made. */
export interface Comparison {
  path: string;
  viewport: Viewport;
  baselineUrl: string;
  previewUrl: string;
  diff?: DiffReply;
  error?: string;
  /** Within the gate (false when it errored). */
  pass: boolean;
}

export interface DiffReport {
  comparisons: Comparison[];
  maxChangedRatio: number;
  /** Comparisons over the gate. */
  changed: number;
  /** Comparisons that could not be made. */
  errors: number;
  /** The largest ratio measured (0 when none). */
  largestRatio: number;
  pass: boolean;
}

/** Every path × viewport through the API, `concurrency` at a time; a failed one is a row, not an abort. */
export async function compareAll(api: ApiClient, s: ScreenshotDiffSettings): Promise<DiffReport> {
  const jobs = s.paths.flatMap((path) => s.viewports.map((viewport) => ({ path, viewport })));
  const comparisons: Comparison[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      comparisons[i] = await compareOne(api, s, jobs[i].path, jobs[i].viewport);
    }
  };
  await Promise.all(Array.from({ length: Math.min(s.concurrency, jobs.length) }, worker));
  return summarise(comparisons, s.maxChangedRatio);
}

async function compareOne(api: ApiClient, s: ScreenshotDiffSettings, path: string, viewport: Viewport): Promise<Comparison> {
  const baselineUrl = s.baselineUrl + path;
  const previewUrl = s.previewUrl + path;
  const base = { path, viewport, baselineUrl, previewUrl };
  try {
    const diff = await api.post<DiffReply>('/api/screenshot/diff', {
      baseline_url: baselineUrl,
      candidate_url: previewUrl,
      width: viewport.width,
      height: viewport.height,
      full_page: s.fullPage,
      threshold: s.threshold,
      delay: s.delay,
      hide_selectors: s.hideSelectors,
    });
    return { ...base, diff, pass: diff.changed_ratio <= s.maxChangedRatio };
  } catch (err) {
    return { ...base, error: (err as Error).message, pass: false };
  }
}

export function summarise(comparisons: Comparison[], maxChangedRatio: number): DiffReport {
  const ratios = comparisons.flatMap((c) => (c.diff ? [c.diff.changed_ratio] : []));
  const changed = comparisons.filter((c) => c.diff && !c.pass).length;
  const errors = comparisons.filter((c) => c.error !== undefined).length;
  return {
    comparisons,
    maxChangedRatio,
    changed,
    errors,
    largestRatio: ratios.length ? Math.max(...ratios) : 0,
    pass: changed === 0 && errors === 0,
  };
}
