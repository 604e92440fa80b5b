import { cell, link } from '../../shared/src/markdown.js';
import { failure, type DeadlinkReport, type LinkItem, type Verdict } from './report.js';

/** Rows listed per table; the JSON report has every one. */
const maxRows = 100;

/**
 * The report as markdown, for the job summary and the PR comment alike: a headline with
 * the verdict, the figures, broken links grouped by page (or file), then redirects and
 * bot-protected links folded away.
 */
export function renderDeadlinksMarkdown(report: DeadlinkReport, v: Verdict): string {
  const s = report.summary;
  const icon = v.pass ? '✅' : '❌';
  const out: string[] = [];
  out.push(`### ${icon} Dead links: ${report.broken_count} broken of ${report.total_links_checked} checked`);
  out.push('');
  out.push(`${headline(report, v)}`);
  out.push('');
  out.push('| Health score | Broken | Checked | Pages | Redirects | Bot-protected | Warnings |');
  out.push('|---:|---:|---:|---:|---:|---:|---:|');
  out.push(`| ${s.health_score} | ${report.broken_count} | ${report.total_links_checked} | ${report.pages_crawled} | ${s.redirects_found} | ${s.bot_blocked} | ${s.warnings} |`);
  if (report.timed_out) out.push('', '> [!WARNING]\n> The check hit its time budget (`max_duration`): the report is partial.');

  if (report.broken_links.length) {
    out.push('', '#### Broken links', '');
    for (const [where, items] of groupByPlace(report.broken_links)) {
      out.push(`**${cell(where)}**`, '', '| Link | Status | Type |', '|---|---|---|');
      for (const item of items.slice(0, maxRows)) {
        out.push(`| ${link(item.url)}${lineNote(item)} | \`${failure(item)}\` | ${item.type}${item.is_image ? ', image' : ''} |`);
      }
      if (items.length > maxRows) out.push(`| … ${items.length - maxRows} more in the JSON report | | |`);
      out.push('');
    }
  }
  folded(out, 'Redirects', report.redirects, (i) => `| ${link(i.url)} | ${i.redirect_chain.map((h) => h.status).join(' → ')} → ${link(i.final_url)} |`, '| Link | Chain |');
  folded(out, 'Bot-protected (not counted as broken)', report.bot_blocked, (i) => `| ${link(i.url)} | \`${i.kind}\` |`, '| Link | Kind |');
  folded(out, 'Warnings', report.warnings, (i) => `| ${link(i.url)} | \`${i.kind}\` |`, '| Link | Kind |');
  out.push('', `<sub>${cell(report.target)} · ${report.mode} mode · checked ${report.checked_at} · SiteLens</sub>`);
  return out.join('\n') + '\n';
}

function headline(report: DeadlinkReport, v: Verdict): string {
  const gate = report.gate;
  const rules = [
    gate?.threshold !== undefined ? `health score ≥ ${gate.threshold}` : undefined,
    gate?.max_broken !== undefined ? `at most ${gate.max_broken} broken` : undefined,
  ].filter(Boolean);
  const rule = v.gated ? `Gate: ${rules.join(' and ')}` : 'Gate: no broken links';
  return `${rule}: **${v.pass ? 'passed' : 'failed'}**. Target: ${link(report.target)}`;
}

/** Broken links by the page (or README file) they are on; a link on several pages is listed under each. */
function groupByPlace(items: LinkItem[]): Map<string, LinkItem[]> {
  const groups = new Map<string, LinkItem[]>();
  for (const item of items) {
    const places = item.file ? [item.file] : item.found_on.length ? item.found_on : ['(unknown page)'];
    for (const p of places) groups.set(p, [...(groups.get(p) ?? []), item]);
  }
  return groups;
}

const lineNote = (item: LinkItem) => (item.lines?.length ? ` (line ${item.lines.join(', ')})` : item.line ? ` (line ${item.line})` : '');

function folded(out: string[], title: string, items: LinkItem[], row: (i: LinkItem) => string, header: string) {
  if (!items.length) return;
  const cols = header.split('|').length - 2;
  out.push('', `<details><summary>${title} (${items.length})</summary>`, '', header, `|${'---|'.repeat(cols)}`);
  for (const i of items.slice(0, maxRows)) out.push(row(i));
  if (items.length > maxRows) out.push(`| … ${items.length - maxRows} more in the JSON report |${' |'.repeat(cols - 1)}`);
  out.push('', '</details>');
}
