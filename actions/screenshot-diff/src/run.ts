import * as core from '@actions/core';
import { createApiClient } from '../../shared/src/api-client.js';
import { publishReport } from '../../shared/src/report-io.js';
import { compareAll } from './comparisons.js';
import { renderDiffMarkdown } from './render-markdown.js';
import type { ScreenshotDiffSettings } from './settings.js';

/** Compares every path × viewport through the API, then reports: summary, PR comment, outputs, verdict. */
export async function runScreenshotDiff(s: ScreenshotDiffSettings): Promise<void> {
  const api = createApiClient({
    baseUrl: s.apiUrl,
    key: s.apiKey,
    onRetry: ({ reason, waitMs }) => core.info(`API call failed (${reason}); retrying in ${Math.round(waitMs / 1000)} s.`),
  });
  const report = await compareAll(api, s);
  const markdown = renderDiffMarkdown(report, s);

  for (const c of report.comparisons) {
    const at = `${c.path} at ${c.viewport.width}x${c.viewport.height}`;
    if (c.error) core.error(c.error, { title: `Screenshot diff failed: ${at}` });
    else if (!c.pass && c.diff) core.error(`${(c.diff.changed_ratio * 100).toFixed(4)} % of pixels changed: ${c.diff.images.diff}`, { title: `Visual change: ${at}` });
  }
  const reportPath = await publishReport({ action: 'screenshot-diff', markdown, report, comment: s.comment, githubToken: s.githubToken, github: s.github });
  core.setOutput('changed', report.changed);
  core.setOutput('max_changed_ratio', report.largestRatio);
  core.setOutput('pass', report.pass);
  core.setOutput('report', reportPath);

  if (!report.pass) {
    const parts = [
      report.changed ? `${report.changed} comparison(s) changed more than ${s.maxChangedRatio}` : '',
      report.errors ? `${report.errors} comparison(s) failed` : '',
    ].filter(Boolean);
    core.setFailed(`Screenshot diff: ${parts.join(', ')}.`);
  }
}
