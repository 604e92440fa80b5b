import type { DeadLinkReport } from '../report.js';
import { placesOf } from './places.js';

const COLUMNS = ['url', 'status', 'kind', 'found_on', 'file', 'line', 'column'] as const;

/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF; quotes doubled. */
export function csvField(value: string | number | null | undefined): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One row per broken link and place (GitHub and documents modes: per file, line and
 * column): url, status, kind, found_on (pages separated by a space), file, line, column.
 * CRLF line ends, header row first.
 */
export function toCsv(report: DeadLinkReport): string {
  const rows: string[] = [COLUMNS.join(',')];
  for (const item of report.broken_links) {
    for (const place of placesOf(item)) {
      rows.push([item.url, item.status, item.kind, item.found_on.join(' '), place?.file, place?.line, place?.column].map(csvField).join(','));
    }
  }
  return rows.join('\r\n') + '\r\n';
}
