import type { ApiClient } from '../../../shared/src/api-client.js';
import { count } from '../../../../server/report-markdown/blocks.js';
import { code } from '../../../../server/report-markdown/escape.js';
import type { ChangedLines, LineRange } from '../changed-lines/unified-diff.js';
import { reportCounts, type DeadLinkReport } from '../../../../server/links/report.js';
import { mergeReports } from '../report.js';
import type { ApiOptions } from '../settings.js';
import { keyedLimits, keylessLimits, sendInBatches } from './batches.js';
import type { Document } from './workspace-files.js';

export interface DocumentsRequest {
  documents: Document[];
  /** Every file of the repository, for relative links. */
  paths: string[];
  /** The repository's web URL: links to its blob/ and tree/ pages are checked against `paths`. */
  repositoryUrl: string;
  /** A built site's folder: root-relative links of HTML files under it resolve against it. */
  siteRoot?: string;
  /** changed_only on a pull request: only links on these lines are checked. */
  changed?: ChangedLines;
}

/**
 * Checks documents through POST /api/deadlinks/documents, in as many calls as the key's
 * limits need, and merges the answers into one report. Returns notes for the summary on
 * what could not be sent.
 */
export async function checkDocuments(api: ApiClient, o: ApiOptions & { keyed: boolean }, req: DocumentsRequest): Promise<{ report: DeadLinkReport; notes: string[] }> {
  const onlyLines = req.changed ? linesToCheck(req.documents, req.changed) : undefined;
  const run = await sendInBatches(
    req.documents,
    o.keyed ? keyedLimits : keylessLimits,
    (batch) =>
      api.post<DeadLinkReport>('/api/deadlinks/documents', {
        documents: batch,
        paths: req.paths,
        only_lines: onlyLines && Object.fromEntries(batch.map((d) => [d.path, onlyLines.get(d.path) ?? []])),
        repository_url: req.repositoryUrl,
        site_root: req.siteRoot,
        exclude: o.exclude.length ? o.exclude : undefined,
        accept: o.accept.length ? o.accept : undefined,
        check_only: o.checkOnly,
        fragments: o.fragments,
        max_duration: o.maxDuration,
        format: 'json',
        // So a set sent in several calls counts a link found in two of them once (mergeReports).
        list_checked: true,
      }),
    // A batch with no changed line has nothing to check; its documents only served as fragment targets.
    (batch) => !onlyLines || batch.some((d) => onlyLines.get(d.path)?.length),
  );
  const notes = run.tooLarge.map(
    (t) => `${code(t.path, 'text')} was not checked: ${(t.bytes / 1048576).toFixed(1)} MB is more than one call of the API takes with this key (${(t.maxBytes / 1048576).toFixed(1)} MB).`,
  );
  if (run.results.length > 1) notes.push(`The ${count(req.documents.length, 'file')} went to the API in ${run.results.length} calls (the key's limits per call); their reports are merged.`);
  const report = run.results.length ? mergeReports(run.results) : emptyReport(req.repositoryUrl);
  const binary = report.summary.skipped_documents ?? 0;
  if (binary) notes.push(`${count(binary, 'file')} not read: binary content (a NUL byte, or bytes that are not UTF-8).`);
  return { report, notes };
}

/** Per document, the changed lines to check: `all` becomes the whole file, an unchanged document none. */
function linesToCheck(documents: Document[], changed: ChangedLines): Map<string, LineRange[]> {
  return new Map(
    documents.map((d) => {
      const lines = changed.get(d.path);
      return [d.path, lines === 'all' ? [[1, lineCount(d)]] : (lines ?? [])];
    }),
  );
}

/** Lines of the file (a base64 document's are counted in its bytes). */
function lineCount(d: Document): number {
  const text = d.encoding === 'base64' ? Buffer.from(d.content, 'base64').toString('latin1') : d.content;
  return text.split(/\r\n|\r|\n/).length;
}

/** No call was needed (changed_only and no changed line in any document): nothing checked, nothing broken. */
function emptyReport(target: string): DeadLinkReport {
  const lists = { broken_links: [], redirects: [], bot_blocked: [], warnings: [], not_checked: [] };
  const totals = { checked: 0, internal: 0, external: 0, skipped: 0, cached: 0, renderedPages: 0, durationMs: 0, skippedDocuments: 0 };
  return { target, mode: 'documents', pages_crawled: 0, ...reportCounts(lists, totals), ...lists, checked_at: new Date().toISOString() };
}
