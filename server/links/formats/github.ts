import type { DeadLinkReport, LinkItem } from '../report.js';
import { placesOf } from './places.js';

/** Workflow-command escaping of the message part. */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** Workflow-command escaping of a property value. */
const escapeProp = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const describe = (i: LinkItem) => {
  const what = i.status !== null ? `HTTP ${i.status}` : i.kind;
  const via = i.redirect_chain.length ? ` after ${i.redirect_chain.length} redirect(s)` : '';
  return `${i.url} is broken (${what}, ${i.kind})${via}`;
};

function annotation(level: 'error' | 'warning', title: string, message: string, item: LinkItem): string[] {
  return placesOf(item).map((place) => {
    if (!place) {
      const where = item.found_on.length ? ` on ${item.found_on.join(', ')}` : '';
      return `::${level} title=${escapeProp(title)}::${escapeData(message + where)}`;
    }
    const col = place.column !== undefined ? `,col=${place.column}` : '';
    return `::${level} file=${escapeProp(place.file)},line=${place.line}${col},title=${escapeProp(title)}::${escapeData(message)}`;
  });
}

/**
 * GitHub Actions workflow commands: `::error` per broken link (per file, line and column
 * when known), `::warning` per warning (missing fragment, rate limited), a final `::notice`.
 */
export function toGithubAnnotations(report: DeadLinkReport): string {
  const out: string[] = [];
  for (const item of report.broken_links) out.push(...annotation('error', `Broken link (${item.kind})`, describe(item), item));
  for (const item of report.warnings) out.push(...annotation('warning', `Link warning (${item.kind})`, `${item.url}: ${item.error ?? item.kind}`, item));
  const s = report.summary;
  const verdict = report.pass === undefined ? '' : report.pass ? ' Passed.' : ' Failed.';
  out.push(
    `::notice title=Dead-link check::${escapeData(
      `Health ${s.health_score}%: ${report.broken_count} broken of ${report.total_links_checked} links checked on ${report.pages_crawled} page(s); ${s.redirects_found} redirect(s), ${s.bot_blocked} bot-protected.${report.timed_out ? ' Timed out: partial results.' : ''}${verdict}`,
    )}`,
  );
  return out.join('\n') + '\n';
}
