import { count, detailsClose, detailsOpen, tableHead, tableRow } from './blocks.js';
import { fitToBudget, fitting, githubCommentLimit, type Block, type Noun } from './budget.js';
import { code, htmlText, link, text, urlLink } from './escape.js';
import { contextLine, type RunContext } from './run-context.js';

/** One path at one viewport, as the screenshot-diff action measured it. */
export interface ComparisonView {
  path: string;
  viewport: { width: number; height: number };
  previewUrl: string;
  diff?: { changed_ratio: number; changed_pixels: number; images: { baseline: string; candidate: string; diff: string } };
  /** Why the comparison could not be made. */
  error?: string;
  /** Within the gate (false when it errored). */
  pass: boolean;
}

export interface DiffReportView {
  comparisons: ComparisonView[];
  maxChangedRatio: number;
  changed: number;
  errors: number;
  pass: boolean;
}

export interface ScreenshotDiffOptions {
  baselineUrl: string;
  previewUrl: string;
  context?: RunContext;
  /** Characters at most. @default 65,536 (a GitHub comment) */
  limit?: number;
}

const nouns = {
  changed: ['changed comparison', 'changed comparisons'],
  failed: ['failed comparison', 'failed comparisons'],
  same: ['comparison within the gate', 'comparisons within the gate'],
} satisfies Record<string, Noun>;

export const percent = (ratio: number) => `${(ratio * 100).toFixed(ratio === 0 || ratio >= 0.01 ? 2 : 4)} %`;

const viewportOf = (c: ComparisonView) => `${c.viewport.width}×${c.viewport.height}`;

/** A thumbnail linking to the full image; only http(s) sources are shown as images. */
export function thumbnail(url: string, alt: string): string {
  if (!/^https?:\/\//i.test(url)) return code(url);
  const u = htmlText(url);
  return `<a href="${u}"><img src="${u}" width="220" alt="${htmlText(alt)}"></a>`;
}

/**
 * The visual comparison as Markdown: a headline with the verdict; the comparisons over
 * the gate with baseline, preview and diff side by side; the ones that could not be made
 * with their reason; the rest (within the gate) folded in `<details>`. Within `limit`.
 */
export function renderScreenshotDiff(report: DiffReportView, o: ScreenshotDiffOptions): string {
  const n = report.comparisons.length;
  const measured = report.comparisons.flatMap((c) => (c.diff ? [{ ...c, diff: c.diff }] : []));
  const changed = measured.filter((c) => !c.pass);
  const same = measured.filter((c) => c.pass);
  const failed = report.comparisons.filter((c) => c.error !== undefined);
  const verdict = report.pass
    ? `✅ Screenshot diff: no change over ${percent(report.maxChangedRatio)} in ${count(n, 'comparison')}`
    : `❌ Screenshot diff: ${report.changed} of ${n} changed${report.errors ? `, ${report.errors} could not be compared` : ''}`;
  const blocks: Block[] = [];
  if (changed.length) {
    blocks.push({
      open: ['', `#### Changed (${changed.length})`, '', ...tableHead([{ title: 'Page' }, { title: 'Changed', align: 'right' }, { title: 'Baseline' }, { title: 'Preview' }, { title: 'Diff' }])],
      rows: changed.map((c) => {
        const d = c.diff;
        const page = `${code(c.path)}<br>${viewportOf(c)}`;
        const amount = `${percent(d.changed_ratio)}<br><sub>${d.changed_pixels.toLocaleString('en-US')} px</sub>`;
        const at = `${c.path} at ${viewportOf(c)}`;
        return {
          line: tableRow([page, amount, thumbnail(d.images.baseline, `baseline of ${at}`), thumbnail(d.images.candidate, `preview of ${at}`), thumbnail(d.images.diff, `diff of ${at}`)]),
          noun: nouns.changed,
        };
      }),
      close: [],
    });
  }
  if (failed.length) {
    blocks.push({
      open: ['', `#### Could not compare (${failed.length})`, '', ...tableHead([{ title: 'Page' }, { title: 'Viewport' }, { title: 'Why' }])],
      rows: failed.map((c) => ({ line: tableRow([urlLink(c.previewUrl), viewportOf(c), text(c.error ?? '')]), noun: nouns.failed })),
      close: [],
    });
  }
  if (same.length) {
    blocks.push({
      open: [...detailsOpen(`Within the gate (${same.length})`), ...tableHead([{ title: 'Page' }, { title: 'Viewport' }, { title: 'Changed', align: 'right' }, { title: 'Images' }])],
      rows: same.map((c) => {
        const d = c.diff;
        const images = [link('baseline', d.images.baseline), link('preview', d.images.candidate), link('diff', d.images.diff)].join(' · ');
        return { line: tableRow([code(c.path), viewportOf(c), percent(d.changed_ratio), images]), noun: nouns.same };
      }),
      close: detailsClose,
    });
  }
  return fitToBudget(
    {
      head: [
        `### ${verdict}`,
        '',
        ...contextLine(o.context),
        `Baseline ${urlLink(o.baselineUrl)} · preview ${urlLink(o.previewUrl)} · gate: changed pixels ≤ ${percent(report.maxChangedRatio)} per comparison.`,
      ],
      blocks,
      cutNote: (what) => ['', `> ✂️ Not shown here, ${fitting(o.limit ?? githubCommentLimit)}: ${what}. The JSON report lists every comparison.`],
      foot: ['', '<sub>SiteLens screenshot diff · changed pixels in red over a faded baseline · images kept 7 days</sub>'],
    },
    o.limit ?? githubCommentLimit,
  ).markdown;
}
