import * as core from '@actions/core';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GithubEnv } from './github-env.js';
import { fitComment } from './markdown.js';
import { commentOnPullRequest } from './sticky-comment.js';

/** Writes the JSON report where later steps can read it; returns its path. */
export async function writeReport(tempDir: string | undefined, name: string, report: unknown): Promise<string> {
  const file = path.join(tempDir ?? os.tmpdir(), name);
  await writeFile(file, JSON.stringify(report, null, 2) + '\n');
  return file;
}

export async function writeSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return core.info(markdown); // run outside Actions
  await core.summary.addRaw(markdown, true).write();
}

export interface PublishOptions {
  /** Action name: the sticky comment's marker and the report file's name. */
  action: 'deadlinks' | 'screenshot-diff';
  markdown: string;
  report: unknown;
  comment: boolean;
  githubToken: string;
  github: GithubEnv;
}

/** What both actions do with a finished report: job summary, sticky PR comment, JSON file. Returns the file's path. */
export async function publishReport(o: PublishOptions): Promise<string> {
  await writeSummary(o.markdown);
  if (o.comment) {
    const [owner, repo] = o.github.repository.split('/');
    await commentOnPullRequest(
      { token: o.githubToken, apiUrl: o.github.apiUrl, owner, repo, issueNumber: o.github.pullRequest, action: o.action },
      fitComment(o.markdown),
    );
  }
  return writeReport(o.github.tempDir, `sitelens-${o.action}.json`, o.report);
}
