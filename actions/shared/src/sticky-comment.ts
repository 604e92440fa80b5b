import * as core from '@actions/core';
import { getOctokit } from '@actions/github';

export interface StickyCommentTarget {
  token: string;
  /** GitHub REST base, from GITHUB_API_URL (GHES: https://host/api/v3). */
  apiUrl: string;
  owner: string;
  repo: string;
  /** The pull request (an issue number). */
  issueNumber: number;
  /** The action's name in the hidden marker `<!-- sitelens:<action> -->`. */
  action: string;
}

export const commentMarker = (action: string) => `<!-- sitelens:${action} -->`;

/**
 * Creates the action's PR comment, or updates the one it wrote before (found by its hidden
 * marker), so each push refreshes one report instead of piling up comments.
 */
export async function upsertStickyComment(target: StickyCommentTarget, markdown: string): Promise<{ id: number; created: boolean }> {
  const octokit = getOctokit(target.token, { baseUrl: target.apiUrl });
  const marker = commentMarker(target.action);
  const body = `${marker}\n${markdown}`;
  const where = { owner: target.owner, repo: target.repo };

  for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, {
    ...where,
    issue_number: target.issueNumber,
    per_page: 100,
  })) {
    const previous = page.data.find((c) => c.body?.includes(marker));
    if (previous) {
      await octokit.rest.issues.updateComment({ ...where, comment_id: previous.id, body });
      return { id: previous.id, created: false };
    }
  }
  const created = await octokit.rest.issues.createComment({ ...where, issue_number: target.issueNumber, body });
  return { id: created.data.id, created: true };
}

/**
 * Upserts the PR comment. A failure is a warning, not a failed check: a fork's PR gets a
 * read-only token, and the report is in the job summary anyway.
 */
export async function commentOnPullRequest(target: Omit<StickyCommentTarget, 'issueNumber'> & { issueNumber?: number }, markdown: string) {
  if (target.issueNumber === undefined) return core.info('Not a pull request event: no PR comment.');
  if (!target.token) return core.warning('No github_token: no PR comment.');
  try {
    const r = await upsertStickyComment({ ...target, issueNumber: target.issueNumber }, markdown);
    core.info(`${r.created ? 'Created' : 'Updated'} PR comment ${r.id}.`);
  } catch (err) {
    const status = (err as { status?: number }).status;
    core.warning(`Could not write the PR comment${status ? ` (GitHub answered ${status})` : ''}: ${(err as Error).message}`);
  }
}
