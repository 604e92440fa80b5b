import * as core from '@actions/core';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { link } from '../../../server/report-markdown/escape.js';
import { runFailureSummary, withRunFailure, type RunFailure } from '../../../server/report-markdown/run-context.js';
import type { GithubEnv } from './github-env.js';
import type { ArtifactUpload } from './upload-step.js';
import { commentBudget, commentMarker, StickyComment } from './sticky-comment.js';

/**
 * The JSON report's file name, from the comment key so two checks of one job keep two
 * files; also the workflow artifact's name, which may not hold `/ \ : < > | * ? "`.
 */
export const reportFileName = (action: string, key: string) => `sitelens-${action}-${key.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '')}.json`;

/** Writes the JSON report where later steps can read it; returns its path. */
export async function writeReport(tempDir: string | undefined, name: string, report: unknown): Promise<string> {
  const file = path.join(tempDir ?? os.tmpdir(), name);
  await writeFile(file, JSON.stringify(report, null, 2) + '\n');
  return file;
}

export async function writeSummary(markdown: string, github: Pick<GithubEnv, 'stepSummary'>): Promise<void> {
  if (!github.stepSummary) return core.info(markdown); // run outside Actions
  await core.summary.addRaw(markdown, true).write();
}

export interface CommentOptions {
  /** The action's name in the marker. */
  action: 'deadlinks' | 'screenshot-diff' | 'preview-report';
  /** Tells this check's comment from others in the same pull request. */
  key: string;
  enabled: boolean;
  token: string;
  github: GithubEnv;
}

/** The sticky comment of `action` as the action's settings configure it. */
export function commentOf(
  action: CommentOptions['action'],
  s: { comment: { key: string; enabled: boolean }; githubToken: string; github: GithubEnv },
): CommentOptions {
  return { action, key: s.comment.key, enabled: s.comment.enabled, token: s.githubToken, github: s.github };
}

/**
 * Creates or updates the check's own PR comment with `body(limit, previous)`: `limit` is the
 * characters left for the report, `previous` the report it posted before (for a failed run
 * that keeps it). A comment that cannot be written (a fork's read-only token) is a warning,
 * not a failed check: the report is in the job summary anyway.
 */
export async function upsertComment(o: CommentOptions, body: (limit: number, previous: string | undefined) => string): Promise<void> {
  if (!o.enabled) return;
  const pr = o.github.pullRequest;
  if (!pr) return core.info('Not a pull request event: no PR comment.');
  if (!o.token) return core.warning('No github_token: no PR comment.');
  const [owner, repo] = o.github.repository.split('/');
  const marker = commentMarker(o.action, o.key);
  try {
    const comment = await StickyComment.open({ token: o.token, apiUrl: o.github.apiUrl, owner, repo, issueNumber: pr.number, marker });
    const r = await comment.write(body(commentBudget(marker), comment.previous));
    core.info(`${r.created ? 'Created' : 'Updated'} PR comment ${r.id} (${marker}).`);
  } catch (err) {
    const status = (err as { status?: number }).status;
    core.warning(`Could not write the PR comment${status ? ` (GitHub answered ${status})` : ''}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/**
 * A run that got no report (the API unreachable, the key refused): the reason goes in the
 * summary and on top of the previous comment (its last good report stays), and the step fails.
 */
export async function publishRunFailure(comment: CommentOptions, failure: RunFailure): Promise<void> {
  await writeSummary(runFailureSummary(failure), comment.github);
  await upsertComment(comment, (_limit, previous) => withRunFailure(previous, failure));
  core.setOutput('pass', false);
  core.setFailed(failure.reason);
}

/** The line that links the report's workflow artifact, or says why there is none (and warns). */
export function artifactNotes(upload: ArtifactUpload, reportFile: string): string[] {
  if (upload.kind === 'uploaded') return [`Full report: ${link(path.basename(reportFile), upload.url)} (workflow artifact, JSON).`];
  if (upload.kind === 'none') return [];
  core.warning(`The JSON report was not uploaded as an artifact. It is at ${reportFile}.`);
  return ['The JSON report could not be uploaded as a workflow artifact (see the upload step\'s log; GitHub Enterprise Server has no artifact storage for actions/upload-artifact v4+). It is in the `report` output\'s file on the runner.'];
}
