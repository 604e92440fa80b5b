import * as core from '@actions/core';
import { count } from '../../../server/report-markdown/blocks.js';
import { stepSummaryLimit } from '../../../server/report-markdown/budget.js';
import { renderDeadLinks, type DeadLinksOptions } from '../../../server/report-markdown/dead-links.js';
import { link } from '../../../server/report-markdown/escape.js';
import { emitAnnotations } from '../../shared/src/annotations.js';
import { runContext } from '../../shared/src/github-env.js';
import { artifactNotes, commentOf, publishRunFailure, upsertComment, writeSummary } from '../../shared/src/report-io.js';
import type { ArtifactUpload } from '../../shared/src/upload-step.js';
import { linkAnnotations } from './annotations.js';
import { offerFixes } from './fixes/offer-fixes.js';
import { writeSarif } from './sarif-file.js';
import type { CheckOutcome } from './check-phase.js';
import type { DeadLinkReport } from '../../../server/links/report.js';
import { verdict } from './report.js';
import type { DeadlinksSettings } from './settings.js';

/**
 * Reports what the check step found: annotations, job summary, PR comment, outputs and the
 * verdict, linking the report's workflow artifact when the upload step made one. Without a
 * report, the reason goes on top of the previous comment instead of replacing it.
 */
export async function publishPhase(s: DeadlinksSettings, outcome: CheckOutcome, report: DeadLinkReport | undefined, upload: ArtifactUpload): Promise<void> {
  const comment = commentOf('deadlinks', s);
  const context = runContext(s.github);
  if (!report || !outcome.reportFile) {
    const failure = { title: 'Dead links', reason: outcome.failure ?? 'no report', context };
    return publishRunFailure(comment, failure);
  }

  const v = verdict(report, s.failOn);
  // Before the comment, so it can say what the review offered and what is left.
  const fixes = await offerFixes(s, outcome, report);
  const notes = [...outcome.notes, ...fixes, ...artifactNotes(upload, outcome.reportFile)];
  const options: DeadLinksOptions = {
    context,
    notes,
    sourceUrl: outcome.sourceUrl,
    failsOnBroken: s.failOn !== 'never',
    fullReport: upload.kind === 'uploaded' ? `The ${link('full JSON report', upload.url)} lists every link.` : 'The JSON report (the `report` output) lists every link.',
  };

  if (s.annotations) emitAnnotations(linkAnnotations(report, !v.pass), { cap: s.maxAnnotations, what: 'links' });
  await writeSummary(renderDeadLinks(report, { ...options, limit: stepSummaryLimit }), s.github);
  await upsertComment(comment, (limit) => renderDeadLinks(report, { ...options, limit }));
  core.setOutput('health_score', report.summary.health_score);
  core.setOutput('broken_count', report.broken_count);
  core.setOutput('pass', v.pass);
  core.setOutput('report', outcome.reportFile);
  core.setOutput('artifact_url', upload.kind === 'uploaded' ? upload.url : '');
  core.setOutput('sarif', s.sarif ? await writeSarif(report, s.sarif, s.github.workspace) : '');

  const broken = count(report.broken_count, 'broken link');
  if (v.fail) {
    core.setFailed(
      v.gated
        ? `Dead-link gate failed: health score ${report.summary.health_score}${s.gate.threshold !== undefined ? ` (needs ≥ ${s.gate.threshold})` : ''}, ${broken}${s.gate.maxBroken !== undefined ? ` (at most ${s.gate.maxBroken})` : ''}.`
        : `${broken} found (set fail_on: never to report without failing).`,
    );
  } else if (v.pass) {
    core.info(v.gated ? `Dead-link gate passed: health score ${report.summary.health_score}, ${broken}.` : `No broken links among ${count(report.total_links_checked, 'link')}.`);
  }
}
