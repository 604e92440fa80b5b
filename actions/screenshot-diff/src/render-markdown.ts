import { cell, link } from '../../shared/src/markdown.js';
import type { Comparison, DiffReport } from './comparisons.js';

const percent = (ratio: number) => `${(ratio * 100).toFixed(ratio === 0 || ratio >= 0.01 ? 2 : 4)} %`;

/**
 * The visual comparison as markdown (job summary and PR comment): a headline with the
 * verdict, one row per path × viewport with the changed share and the images (the diff
 * inline as a thumbnail linking to the full size), then the failed comparisons' errors.
 */
export function renderDiffMarkdown(report: DiffReport, s: { baselineUrl: string; previewUrl: string }): string {
  const n = report.comparisons.length;
  const out: string[] = [];
  const verdict = report.pass
    ? `✅ Screenshot diff: no visual change over ${percent(report.maxChangedRatio)} in ${n} comparison${n === 1 ? '' : 's'}`
    : `❌ Screenshot diff: ${report.changed} of ${n} changed${report.errors ? `, ${report.errors} failed` : ''}`;
  out.push(`### ${verdict}`, '');
  out.push(`Baseline ${link(s.baselineUrl)} · preview ${link(s.previewUrl)} · gate: changed pixels ≤ ${percent(report.maxChangedRatio)}`, '');
  out.push('| Path | Viewport | Changed | Diff | Images | Result |', '|---|---|---:|---|---|:---:|');
  for (const c of report.comparisons) out.push(row(c));
  const failed = report.comparisons.filter((c) => c.error);
  if (failed.length) {
    out.push('', '#### Comparisons that failed', '');
    for (const c of failed) out.push(`- \`${cell(c.path)}\` at ${c.viewport.width}×${c.viewport.height}: ${cell(c.error ?? '')}`);
  }
  out.push('', '<sub>Changed pixels in red over a faded baseline. Images are kept 7 days. SiteLens</sub>');
  return out.join('\n') + '\n';
}

function row(c: Comparison): string {
  const where = `\`${cell(c.path)}\``;
  const viewport = `${c.viewport.width}×${c.viewport.height}`;
  if (!c.diff) return `| ${where} | ${viewport} | n/a | | ${link(c.previewUrl)} | ❌ |`;
  const d = c.diff;
  const thumb = `<a href="${d.images.diff}"><img src="${d.images.diff}" width="240" alt="diff of ${escapeAttr(c.path)}"></a>`;
  const images = `[baseline](${d.images.baseline}) · [preview](${d.images.candidate}) · [diff](${d.images.diff})`;
  const changed = `${percent(d.changed_ratio)}<br><sub>${d.changed_pixels.toLocaleString('en-US')} px</sub>`;
  return `| ${where} | ${viewport} | ${changed} | ${thumb} | ${images} | ${c.pass ? '✅' : '❌'} |`;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
