import * as core from '@actions/core';
import { emitAnnotations } from '../../shared/src/annotations.js';
import { createApiClient } from '../../shared/src/api-client.js';
import { publishReport } from '../../shared/src/report-io.js';
import { brokenLinkAnnotations } from './annotations.js';
import { renderDeadlinksMarkdown } from './render-markdown.js';
import { verdict, type DeadlinkReport } from './report.js';
import type { DeadlinksSettings } from './settings.js';

/** Checks the target through the API, then reports: summary, annotations, PR comment, outputs, verdict. */
export async function runDeadlinks(s: DeadlinksSettings): Promise<void> {
  const api = createApiClient({
    baseUrl: s.apiUrl,
    key: s.apiKey,
    onRetry: ({ reason, waitMs }) => core.info(`API call failed (${reason}); retrying in ${Math.round(waitMs / 1000)} s.`),
  });
  const report = await api.get<DeadlinkReport>('/api/deadlinks', {
    ...(s.target.kind === 'url' ? { url: s.target.url, mode: s.mode } : { github: s.target.repository, ref: s.target.ref }),
    max_pages: s.maxPages,
    max_duration: s.maxDuration,
    check_only: s.checkOnly,
    threshold: s.threshold,
    max_broken: s.maxBroken,
    render: s.render ? undefined : false,
    format: 'json',
  });
  const v = verdict(report, s.failOn);
  const markdown = renderDeadlinksMarkdown(report, v);

  if (s.annotations) emitAnnotations(brokenLinkAnnotations(report), { cap: s.maxAnnotations, what: 'broken links' });
  const reportPath = await publishReport({ action: 'deadlinks', markdown, report, comment: s.comment, githubToken: s.githubToken, github: s.github });
  core.setOutput('health_score', report.summary.health_score);
  core.setOutput('broken_count', report.broken_count);
  core.setOutput('pass', v.pass);
  core.setOutput('report', reportPath);

  if (v.fail) {
    core.setFailed(
      v.gated
        ? `Dead-link gate failed: health score ${report.summary.health_score}, ${report.broken_count} broken link(s).`
        : `${report.broken_count} broken link(s) found (set fail_on: never to report without failing).`,
    );
  }
}
