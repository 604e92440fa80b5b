import type { Response } from 'express';
import { toCsv } from '../../links/formats/csv.js';
import { toGithubAnnotations } from '../../links/formats/github.js';
import { toSarif, type SarifOptions } from '../../links/formats/sarif.js';
import { apis } from '../api-names.js';
import type { DeadLinkReport } from '../../links/report.js';
import { renderDeadLinks } from '../../report-markdown/dead-links.js';
import { compileUrlPattern, type UrlPattern } from '../../links/url-pattern.js';

export type ReportFormat = 'json' | 'csv' | 'github' | 'markdown' | 'sarif';

/** The report in a text format; null for JSON. */
export function formatReport(format: ReportFormat, report: DeadLinkReport, sarif: SarifOptions = {}): string | null {
  if (format === 'csv') return toCsv(report);
  if (format === 'github') return toGithubAnnotations(report);
  if (format === 'markdown') return renderDeadLinks(report);
  if (format === 'sarif') return JSON.stringify(toSarif(report, { toolVersion: apis.deadlinks.version, ...sarif }), null, 2);
  return null;
}

const mediaTypes: Record<Exclude<ReportFormat, 'json'>, string> = {
  csv: 'text/csv; charset=utf-8',
  github: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  sarif: 'application/sarif+json; charset=utf-8',
};

/** `docs`: the service's docs page, SARIF's `informationUri` and every rule's `helpUri`. */
export function sendReport(res: Response, format: ReportFormat, report: DeadLinkReport, docs?: string): void {
  const text = formatReport(format, report, docs ? { informationUri: docs } : {});
  if (text === null || format === 'json') res.json(report);
  else res.type(mediaTypes[format]).send(text);
}

/** `exclude` patterns compiled and `accept` codes as a set, as every mode takes them. */
export function linkFilters(q: { exclude?: string[]; accept?: number[] }): { exclude?: UrlPattern[]; accept?: ReadonlySet<number> } {
  return {
    ...(q.exclude?.length ? { exclude: q.exclude.map(compileUrlPattern) } : {}),
    ...(q.accept?.length ? { accept: new Set(q.accept) } : {}),
  };
}
