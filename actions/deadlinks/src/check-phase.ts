import * as core from '@actions/core';
import { readFile } from 'node:fs/promises';
import { ApiError, createApiClient } from '../../shared/src/api-client.js';
import { reportFileName, writeReport } from '../../shared/src/report-io.js';
import { checkTarget } from './check-target.js';
import type { DeadLinkReport } from '../../../server/links/report.js';
import { withGate } from '../../../server/links/report-counts.js';
import type { LineRange } from './changed-lines/unified-diff.js';
import type { DeadlinksSettings } from './settings.js';

/**
 * What the check step hands to the publish step (the action's upload step runs between
 * them): the report's file, or why there is none, and what the summary must say.
 */
export interface CheckOutcome {
  /** The JSON report, gate applied; absent when the API could not produce one. */
  reportFile?: string;
  /** One line: why no report (the API unreachable, the key refused …). */
  failure?: string;
  notes: string[];
  sourceUrl?: string;
  /** changed_only on a pull request with suggestions: the lines the pull request changes, per path (review comments go only there). */
  changedLines?: Record<string, LineRange[] | 'all'>;
}

/** Checks the target through the API and writes the report; an API failure is an outcome, not a throw. */
export async function checkPhase(s: DeadlinksSettings): Promise<CheckOutcome> {
  const api = createApiClient({
    baseUrl: s.api.url,
    key: s.api.key,
    onRetry: ({ reason, waitMs }) => core.info(`API call failed (${reason}); retrying in ${Math.round(waitMs / 1000)} s.`),
  });
  try {
    const checked = await checkTarget(api, s);
    const report = withGate(checked.report, s.gate);
    const reportFile = await writeReport(s.github.tempDir, reportFileName('deadlinks', s.comment.key), report);
    const changedLines = checked.changed && s.suggestions ? Object.fromEntries(checked.changed) : undefined;
    return { reportFile, notes: checked.notes, sourceUrl: checked.sourceUrl, changedLines };
  } catch (err) {
    if (err instanceof ApiError) return { failure: err.message, notes: [] };
    throw err;
  }
}

/** Writes the outcome for the publish step; answers its file. */
export const saveOutcome = (s: DeadlinksSettings, outcome: CheckOutcome) => writeReport(s.github.tempDir, reportFileName('deadlinks', `${s.comment.key}.state`), outcome);

/** The check step's outcome, from the file it wrote. */
export const readOutcome = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as CheckOutcome;

/** The report an outcome names. */
export const readReport = async (o: CheckOutcome) => (o.reportFile ? (JSON.parse(await readFile(o.reportFile, 'utf8')) as DeadLinkReport) : undefined);
