import * as core from '@actions/core';
import type { CompareReport } from '../../../server/compare/compare-report.js';
import { stepSummaryLimit } from '../../../server/report-markdown/budget.js';
import { renderPreviewReport } from '../../../server/report-markdown/preview-report.js';
import { runContext } from '../../shared/src/github-env.js';
import { artifactNotes, commentOf, publishRunFailure, upsertComment, writeSummary } from '../../shared/src/report-io.js';
import type { ArtifactUpload } from '../../shared/src/upload-step.js';
import type { CheckOutcome } from './check-phase.js';
import type { PreviewReportSettings } from './settings.js';

/**
 * Summary, PR comment, outputs and the verdict. Only regressions fail the step (with
 * fail_on: regression): problems production already has, changes to review and checks that
 * could not compare do not.
 */
export async function publishPhase(s: PreviewReportSettings, outcome: CheckOutcome, report: CompareReport | undefined, upload: ArtifactUpload): Promise<void> {
  const comment = commentOf('preview-report', s);
  const context = runContext(s.github);
  if (!report || !outcome.reportFile) {
    const failure = { title: 'Preview report', reason: outcome.failure ?? 'no report', context };
    return publishRunFailure(comment, failure);
  }
  const notes = artifactNotes(upload, outcome.reportFile);
  await writeSummary(renderPreviewReport(report, { context, notes, limit: stepSummaryLimit }), s.github);
  await upsertComment(comment, (limit) => renderPreviewReport(report, { context, notes, limit }));

  const pass = report.regressions === 0;
  core.setOutput('verdict', report.verdict);
  core.setOutput('regressions', report.regressions);
  core.setOutput('health_baseline', report.health.baseline ?? '');
  core.setOutput('health_preview', report.health.preview ?? '');
  core.setOutput('pass', pass);
  core.setOutput('report', outcome.reportFile);
  core.setOutput('artifact_url', upload.kind === 'uploaded' ? upload.url : '');
  if (!pass && s.failOn === 'regression') core.setFailed(`Preview report: ${report.headline} (set fail_on: never to report without failing).`);
  else core.info(`Preview report: ${report.headline}.`);
}
