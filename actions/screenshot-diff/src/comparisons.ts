import type { ComparisonView, DiffReportView } from '../../../server/report-markdown/screenshot-diff.js';
import { ApiError, type ApiClient } from '../../shared/src/api-client.js';
import type { Viewport } from '../../shared/src/compared-sites.js';
import type { ScreenshotDiffSettings } from './settings.js';

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
export interface Comparison extends ComparisonView {
  viewport: Viewport;
  baselineUrl: string;
  diff?: DiffReply;
  /** The API itself failed (unreachable, key refused), not the pages compared. */
  apiFailure?: boolean;
}

export interface DiffReport extends DiffReportView {
  comparisons: Comparison[];
  /** The largest ratio measured (0 when none). */
  largestRatio: number;
}

/** Every path × viewport through the API, `concurrency` at a time; a failed one is a row, not an abort. */
export async function compareAll(api: ApiClient, s: ScreenshotDiffSettings): Promise<DiffReport> {
  const jobs = s.paths.flatMap((path) => s.viewports.map((viewport) => ({ path, viewport })));
  const comparisons: Comparison[] = new Array(jobs.length);
  let next = 0;
  // Once the API itself fails (unreachable, key refused), the other comparisons would too: stop asking.
  let apiDown = false;
  const worker = async () => {
    while (next < jobs.length && !apiDown) {
      const i = next++;
      comparisons[i] = await compareOne(api, s, jobs[i].path, jobs[i].viewport);
      apiDown ||= comparisons[i].apiFailure === true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(s.concurrency, jobs.length) }, worker));
  return summarise(comparisons.filter(Boolean), s.maxChangedRatio);
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
      target_headers: s.targetHeaders,
    });
    return { ...base, diff, pass: diff.changed_ratio <= s.maxChangedRatio };
  } catch (err) {
    return { ...base, error: (err as Error).message, apiFailure: err instanceof ApiError && err.isApiFailure, pass: false };
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
