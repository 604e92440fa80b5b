import * as core from '@actions/core';
import { stepSummaryLimit } from '../../../server/report-markdown/budget.js';
import { renderScreenshotDiff } from '../../../server/report-markdown/screenshot-diff.js';
import { createApiClient } from '../../shared/src/api-client.js';
import { runContext } from '../../shared/src/github-env.js';
import { commentOf, publishRunFailure, reportFileName, upsertComment, writeReport, writeSummary } from '../../shared/src/report-io.js';
import { compareAll } from './comparisons.js';
import { waitWhenAsked } from '../../shared/src/wait-for-url.js';
import type { ScreenshotDiffSettings } from './settings.js';

/** Compares every path × viewport through the API, then reports: summary, PR comment, outputs, verdict. */
export async function runScreenshotDiff(s: ScreenshotDiffSettings): Promise<void> {
  const api = createApiClient({
    baseUrl: s.apiUrl,
    key: s.apiKey,
    onRetry: ({ reason, waitMs }) => core.info(`API call failed (${reason}); retrying in ${Math.round(waitMs / 1000)} s.`),
  });
  const comment = commentOf('screenshot-diff', s);
  const context = runContext(s.github);
  await waitWhenAsked(s.wait, s.previewUrl + s.paths[0], s.targetHeaders, !!s.github.stepSummary);
  const report = await compareAll(api, s);

  const apiFailure = report.comparisons.find((c) => c.apiFailure);
  if (apiFailure?.error) {
    // The API could not be used: the last good table stays, under a line saying why this run has none.
    const failure = { title: 'Screenshot diff', reason: apiFailure.error, context };
    return publishRunFailure(comment, failure);
  }

  for (const c of report.comparisons) {
    const at = `${c.path} at ${c.viewport.width}x${c.viewport.height}`;
    if (c.error) core.error(c.error, { title: `Screenshot diff failed: ${at}` });
    else if (!c.pass && c.diff) core.error(`${(c.diff.changed_ratio * 100).toFixed(4)} % of pixels changed: ${c.diff.images.diff}`, { title: `Visual change: ${at}` });
  }
  const options = { baselineUrl: s.baselineUrl, previewUrl: s.previewUrl, context };
  await writeSummary(renderScreenshotDiff(report, { ...options, limit: stepSummaryLimit }), s.github);
  await upsertComment(comment, (limit) => renderScreenshotDiff(report, { ...options, limit }));
  core.setOutput('changed', report.changed);
  core.setOutput('max_changed_ratio', report.largestRatio);
  core.setOutput('pass', report.pass);
  core.setOutput('report', await writeReport(s.github.tempDir, reportFileName('screenshot-diff', s.comment.key), report));

  if (!report.pass) {
    const parts = [
      report.changed ? `${report.changed} comparison(s) changed more than ${s.maxChangedRatio}` : '',
      report.errors ? `${report.errors} comparison(s) failed` : '',
    ].filter(Boolean);
    core.setFailed(`Screenshot diff: ${parts.join(', ')}.`);
  }
}
