import { ApiError, type ApiClient } from '../../../shared/src/api-client.js';
import { count } from '../../../../server/report-markdown/blocks.js';
import { code } from '../../../../server/report-markdown/escape.js';
import type { ChangedLines, LineRange } from '../changed-lines/unified-diff.js';
import type { DeadLinkReport } from '../../../../server/links/report.js';
import { reportCounts } from '../../../../server/links/report-counts.js';
import { mergeReports } from '../report.js';
import type { ApiOptions } from '../settings.js';
import { callBudget, planBatches, sendInBatches, type DocumentLimits } from './batches.js';
import { indexDocuments } from './document-index.js';
import { refFiles } from './ref-files.js';
import type { Document } from './workspace-files.js';

export interface DocumentsRequest {
  documents: Document[];
  /** Every file of the repository, for relative links. */
  paths: string[];
  /** The repository's web URL: links to its blob/ and tree/ pages are checked against the files at their ref. */
  repositoryUrl: string;
  /** The checkout (git), for the files at other refs that links name. */
  workspace: string;
  /** Refs whose links are checked against the checkout's files (HEAD, the branch or tag checked). */
  currentRefs: string[];
  /** A built site's folder: root-relative links of HTML files under it resolve against it. */
  siteRoot?: string;
  /** changed_only on a pull request: only links on these lines are checked. */
  changed?: ChangedLines;
  /** Ask the API for each link's fix (a permanent redirect's target, https, an archived copy). */
  suggestFixes?: boolean;
}

/**
 * Checks documents through POST /api/deadlinks/documents, in as many calls as the key's
 * limits need (read from GET /api/usage before the first call), and merges the answers into
 * one report. Every call gets the anchors of the set's documents it does not carry, so a
 * `#fragment` into a file sent in another call is judged all the same, and the files at the
 * other refs its documents link to that the checkout has. Returns notes for the summary on
 * what could not be sent.
 */
export async function checkDocuments(api: ApiClient, o: ApiOptions & { keyed: boolean }, req: DocumentsRequest): Promise<{ report: DeadLinkReport; notes: string[] }> {
  const onlyLines = req.changed ? linesToCheck(req.documents, req.changed) : undefined;
  // A batch with no changed line has nothing to check; its documents serve only as fragment targets.
  const worthSending = (batch: Document[]) => !onlyLines || batch.some((d) => onlyLines.get(d.path)?.length);
  const budget = await callBudget(api, o.keyed);
  const plan = planBatches(req.documents, budget.limits);
  const planned = plan.batches.filter(worthSending).length;
  if (budget.remainingToday !== undefined && planned > budget.remainingToday) {
    throw new ApiError(
      429,
      `the ${count(req.documents.length, 'file')} need ${count(planned, 'call')} with this ${budget.tier ?? ''} key (${limitsText(budget.limits)} a call), and it has ${count(budget.remainingToday, 'call')} left today: narrow \`files\`, wait for tomorrow's quota, or use a key of a higher tier`,
    );
  }
  // One call judges every fragment itself; only a set split over calls needs the others' anchors sent along.
  const index = indexDocuments(req.documents, req.repositoryUrl, { anchors: plan.batches.length > 1 || plan.tooLarge.length > 0 });
  const current = new Set(req.currentRefs);
  const linkedRefs = new Set([...index.refsLinked.values()].flatMap((refs) => [...refs]).filter((r) => !current.has(r)));
  const atRefs = await refFiles(req.workspace, linkedRefs, index.fragmentTargets);

  const run = await sendInBatches(
    req.documents,
    budget.limits,
    (batch) => {
      const inBatch = new Set(batch.map((d) => d.path));
      const refs = new Set(batch.flatMap((d) => [...(index.refsLinked.get(d.path) ?? [])]));
      return api.post<DeadLinkReport>('/api/deadlinks/documents', {
        documents: batch,
        paths: req.paths,
        anchors: Object.fromEntries([...index.anchors].filter(([path]) => !inBatch.has(path))),
        only_lines: onlyLines && Object.fromEntries(batch.map((d) => [d.path, onlyLines.get(d.path) ?? []])),
        repository_url: req.repositoryUrl,
        current_refs: req.currentRefs,
        refs: Object.fromEntries([...atRefs].filter(([ref]) => refs.has(ref))),
        site_root: req.siteRoot,
        offline: o.offline || undefined,
        unused_definitions: o.unusedDefinitions,
        exclude: o.exclude.length ? o.exclude : undefined,
        accept: o.accept.length ? o.accept : undefined,
        check_only: o.checkOnly,
        fragments: o.fragments,
        max_duration: o.maxDuration,
        format: 'json',
        suggest_fixes: req.suggestFixes || undefined,
        // So a set sent in several calls counts a link found in two of them once (mergeReports).
        list_checked: true,
      });
    },
    worthSending,
  );
  const notes = run.tooLarge.map(
    (t) => `${code(t.path, 'text')} was not checked: ${(t.bytes / 1048576).toFixed(1)} MB is more than one call of the API takes with this key (${(t.maxBytes / 1048576).toFixed(1)} MB); links into it were judged by its headings all the same.`,
  );
  if (run.results.length > 1) {
    notes.push(`The ${count(req.documents.length, 'file')} went to the API in ${run.results.length} calls (${limitsText(run.learned ?? budget.limits)} a call with this key); each call judged #fragments into the others' files by their headings, and the reports are merged.`);
  }
  const report = run.results.length ? mergeReports(run.results) : emptyReport(req.repositoryUrl);
  const binary = report.summary.skipped_documents ?? 0;
  if (binary) notes.push(`${count(binary, 'file')} not read: binary content, as GitHub judges it (or text in an encoding that could not be named).`);
  const otherRefs = [...atRefs.keys()];
  if (otherRefs.length) notes.push(`Links to this repository at ${otherRefs.map((r) => code(r, 'text')).join(', ')} were checked against the files at that ref in the checkout.`);
  return { report, notes };
}

const limitsText = (l: DocumentLimits) => `${count(l.maxDocuments, 'file')} / ${(l.maxBytes / 1048576).toFixed(l.maxBytes < 1048576 ? 1 : 0)} MB`;

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
