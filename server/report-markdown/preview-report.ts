import { checkTitles, type CompareReport } from '../compare/compare-report.js';
import type { AnyItem, CheckDiff, CheckStatus } from '../compare/types.js';
import { count, detailsClose, detailsOpen, table, tableHead, tableRow, type Column } from './blocks.js';
import { fitting, githubCommentLimit, fitToBudget, type Block, type Noun } from './budget.js';
import { code, htmlText, text, urlLink } from './escape.js';
import { urlLabels } from './url-labels.js';
import { contextLine, type RunContext } from './run-context.js';
import { percent, thumbnail as thumb } from './screenshot-diff.js';
import { formatBytes } from '../perf/perf-grade.js';

export interface PreviewReportOptions {
  context?: RunContext;
  /** Lines under the table (the artifact link). */
  notes?: string[];
  /** Characters available. @default GitHub's comment limit */
  limit?: number;
}

/** ✅ nothing worse, ⚠️ a change to look at or a check that could not compare, ❌ a regression. */
export const statusIcon: Record<CheckStatus, string> = { regressed: '❌', changed: '⚠️', improved: '✅', unchanged: '✅', unavailable: '⚠️' };
const verdictIcon = { regressed: '❌', changed: '⚠️', improved: '✅', unchanged: '✅' } as const;

const sign = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0');
const score = (n: number | null) => (n === null ? 'n/a' : `**${n}**`);
const noun = (singular: string): Noun => [singular, `${singular}s`];

/**
 * The preview report as Markdown: the verdict, the health score of both sides, one row per
 * check (production → preview, change, icon), then each check's differences folded in
 * `<details>` (regressions first), the visual diffs inline and the trend picture. Within `limit`.
 */
export function renderPreviewReport(r: CompareReport, o: PreviewReportOptions = {}): string {
  const h = r.health;
  const head = [
    `### ${verdictIcon[r.verdict]} Preview report: ${text(r.headline)}`,
    '',
    ...contextLine(o.context),
    `${urlLink(r.baseline_url)} (production) → ${urlLink(r.preview_url)} (preview)${r.paths.length > 1 || r.paths[0] !== '/' ? ` · paths ${r.paths.map((p) => code(p, 'text')).join(' ')}` : ''}`,
    '',
    `Health score: production ${score(h.baseline)} → preview ${score(h.preview)}${h.delta !== null ? ` (${sign(h.delta)})` : ''}`,
    ...table(
      [{ title: 'Check' }, { title: 'Production' }, { title: 'Preview' }, { title: 'Change' }, { title: '', align: 'center' }],
      r.results.map((c) => [checkTitles[c.check], text(c.baseline), text(c.preview), text(c.change || (c.status === 'unavailable' ? 'not compared' : 'no change')), statusIcon[c.status]]),
    ),
  ];
  const trend = r.trend.image_url
    ? ['', `<img src="${htmlText(r.trend.image_url)}" width="480" alt="Health score of production and preview over the last ${count(r.trend.runs.length, 'run')}">`]
    : [];
  return fitToBudget(
    {
      head: [...head, ...trend],
      blocks: r.results.flatMap((c) => details(c)),
      cutNote: (what) => ['', `> ✂️ Not shown here, ${fitting(o.limit ?? githubCommentLimit)}: ${what}. The JSON report lists every difference.`],
      foot: [...(o.notes?.length ? ['', ...o.notes] : []), '', '<sub>SiteLens preview report · ❌ regression · ⚠️ change to review or not compared · ✅ no regression</sub>'],
    },
    o.limit ?? githubCommentLimit,
  ).markdown;
}

/** One check's differences, regressions first, in a folded block; nothing when there are none. */
function details(c: CheckDiff): Block[] {
  const items = [...c.items].sort((a, b) => Number(b.regression) - Number(a.regression));
  const shown = c.check === 'perf' ? items.filter((i) => i.regression || !('metric' in i) || i.delta !== 0) : items;
  if (!shown.length && !c.notes.length) return [];
  const title = `${checkTitles[c.check]}: ${c.regressions ? count(c.regressions, 'regression') : 'no regression'}${shown.length ? `, ${count(shown.length, 'difference')}` : ''}`;
  const [columns, row] = layouts[c.check](c);
  const notes = c.notes.map((n) => `- ${text(n)}`);
  return [
    {
      open: [...detailsOpen(title, c.regressions > 0), ...(notes.length ? [...notes, ''] : []), ...(shown.length ? tableHead(columns) : [])],
      rows: shown.map((i) => ({ line: tableRow([i.regression ? '❌' : '', ...pad(row(i), columns.length - 1)]), noun: noun('difference') })),
      close: detailsClose,
    },
  ];
}

type Layout = [Column[], (i: AnyItem) => string[]];
const mark: Column = { title: '', align: 'center' };
const field = (i: AnyItem, k: string) => String((i as unknown as Record<string, unknown>)[k] ?? '');

const layouts: Record<CheckDiff['check'], (c: CheckDiff) => Layout> = {
  links: (c) => {
    // Long URLs that would read the same shortened keep the part where they differ.
    const links = c.items.flatMap((i) => ('url' in i ? [i] : []));
    const linkLabel = urlLabels(links.map((i) => i.url), 60);
    const pageLabel = urlLabels(links.flatMap((i) => i.found_on.slice(0, 2)), 40);
    return [
      [mark, { title: 'Link' }, { title: 'Status' }, { title: 'Change' }, { title: 'Found on' }],
      (i) => 'url' in i ? [urlLink(i.url, 60, linkLabel), i.status === null ? text(i.error_kind) : String(i.status), text(i.kind.replace('_', ' ')), i.found_on.slice(0, 2).map((u) => urlLink(u, 40, pageLabel)).join('<br>')] : failure(i),
    ];
  },
  seo: () => [
    [mark, { title: 'Path' }, { title: 'Check' }, { title: 'Change' }, { title: 'Preview says' }],
    (i) => 'check' in i ? [code(i.path), code(i.check), text(i.kind.replace('_', ' ')), text(i.message)] : failure(i),
  ],
  perf: () => [
    [mark, { title: 'Path' }, { title: 'Figure' }, { title: 'Production', align: 'right' }, { title: 'Preview', align: 'right' }, { title: 'Change', align: 'right' }],
    (i) => 'metric' in i ? [code(i.path), metricNames[i.metric], figure(i.metric, i.baseline), figure(i.metric, i.preview), delta(i.metric, i.delta)] : failure(i),
  ],
  techstack: () => [
    [mark, { title: 'Technology' }, { title: 'Production' }, { title: 'Preview' }, { title: 'Change' }],
    (i) => 'name' in i ? [text(i.name), text(i.baseline_version ?? (i.kind === 'added' ? '—' : 'seen')), text(i.preview_version ?? (i.kind === 'removed' ? '—' : 'seen')), text(i.kind.replace('_', ' '))] : failure(i),
  ],
  tls: () => [[mark, { title: 'Production' }, { title: 'Preview' }, { title: 'Change' }], (i) => [text(field(i, 'baseline_grade') || '—'), text(field(i, 'preview_grade') || '—'), text(field(i, 'message'))]],
  visual: () => [
    [mark, { title: 'Path' }, { title: 'Changed' }, { title: 'Production' }, { title: 'Preview' }, { title: 'Diff' }],
    (i) =>
      'images' in i
        ? [`${code(i.path)}<br>${i.width}×${i.height}`, percent(i.changed_ratio), thumb(i.images.baseline, `production of ${i.path}`), thumb(i.images.candidate, `preview of ${i.path}`), thumb(i.images.diff, `diff of ${i.path}`)]
        : failure(i),
  ],
};

const pad = (cells: string[], n: number) => [...cells, ...Array<string>(Math.max(0, n - cells.length)).fill('')];

function failure(i: AnyItem): string[] {
  return [code(field(i, 'path') || '/'), 'failed on the preview', text(field(i, 'error'))];
}

const metricNames: Record<string, string> = { grade: 'grade', response_time_ms: 'response time', transfer_size_bytes: 'transfer size', requests: 'sub-resource requests' };

function figure(metric: string, v: number | string): string {
  if (typeof v === 'string') return text(v);
  if (metric === 'transfer_size_bytes') return formatBytes(v);
  if (metric === 'response_time_ms') return `${Math.round(v)} ms`;
  return String(v);
}

function delta(metric: string, d: number): string {
  if (metric === 'grade') return d === 0 ? '±0' : d > 0 ? `${d} worse` : `${-d} better`;
  if (metric === 'transfer_size_bytes') return d === 0 ? '±0' : `${d > 0 ? '+' : '−'}${formatBytes(Math.abs(d))}`;
  return metric === 'response_time_ms' ? `${sign(Math.round(d))} ms` : sign(Math.round(d));
}
