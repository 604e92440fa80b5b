import * as core from '@actions/core';
import { readFile } from 'node:fs/promises';
import type { CompareReport } from '../../../server/compare/compare-report.js';
import { ApiError, createApiClient, type ApiClient } from '../../shared/src/api-client.js';
import { reportFileName, writeReport } from '../../shared/src/report-io.js';
import type { PreviewReportSettings } from './settings.js';
import { waitWhenAsked } from '../../shared/src/wait-for-url.js';

/** What the check step hands to the publish step (the upload step runs between them). */
export interface CheckOutcome {
  /** The JSON report; absent when the API could not produce one. */
  reportFile?: string;
  /** One line: why there is no report (the API unreachable, the key refused, the job failed). */
  failure?: string;
}

interface Queued {
  job_id: string;
  status_url: string;
  counted_requests: number;
}

interface Status {
  status: 'queued' | 'processing' | 'completed' | 'failed';
  progress: { done: number; total: number; last: string | null } | null;
  report: CompareReport | null;
  error: string | null;
}

/** How often the job's status is read, and for how long at most. */
const POLL_MS = 1_000;
const MAX_WAIT_MS = 30 * 60_000;

/** Queues the comparison, prints its progress while it runs, and writes the report. */
export async function checkPhase(s: PreviewReportSettings): Promise<CheckOutcome> {
  const api = createApiClient({
    baseUrl: s.apiUrl,
    key: s.apiKey,
    onRetry: ({ reason, waitMs }) => core.info(`API call failed (${reason}); retrying in ${Math.round(waitMs / 1000)} s.`),
  });
  await waitWhenAsked(s.wait, s.previewUrl + s.paths[0], s.targetHeaders, !!s.github.stepSummary);
  try {
    const queued = await api.post<Queued>('/api/compare', {
      baseline_url: s.baselineUrl,
      preview_url: s.previewUrl,
      paths: s.paths,
      checks: s.checks,
      viewports: s.viewports,
      target_headers: s.targetHeaders,
    });
    core.info(`Comparison ${queued.job_id} queued (${s.checks.join(', ')} on ${s.paths.length} path(s); counts ${queued.counted_requests} requests).`);
    const report = await follow(api, queued.job_id);
    return { reportFile: await writeReport(s.github.tempDir, reportFileName('preview-report', s.comment.key), report) };
  } catch (err) {
    if (err instanceof ApiError || err instanceof JobFailed) return { failure: err.message };
    throw err;
  }
}

class JobFailed extends Error {}

/** Reads the job until it ends, printing a line each time it moves on. */
async function follow(api: ApiClient, id: string): Promise<CompareReport> {
  const deadline = Date.now() + MAX_WAIT_MS;
  let said = '';
  for (;;) {
    const s = await api.get<Status>(`/api/compare/${id}`);
    const line = s.progress ? `[${s.progress.done}/${s.progress.total}] ${s.progress.last ? `done: ${s.progress.last}` : 'started'}` : `${s.status}…`;
    if (line !== said) core.info(line);
    said = line;
    if (s.status === 'completed' && s.report) return s.report;
    if (s.status === 'failed') throw new JobFailed(`the comparison failed: ${s.error ?? 'unknown error'}`);
    if (Date.now() > deadline) throw new JobFailed(`the comparison did not finish within ${MAX_WAIT_MS / 60_000} minutes`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Writes the outcome for the publish step; answers its file. */
export const saveOutcome = (s: PreviewReportSettings, outcome: CheckOutcome) => writeReport(s.github.tempDir, reportFileName('preview-report', `${s.comment.key}.state`), outcome);

export const readOutcome = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as CheckOutcome;

export const readReport = async (o: CheckOutcome) => (o.reportFile ? (JSON.parse(await readFile(o.reportFile, 'utf8')) as CompareReport) : undefined);
