import * as core from '@actions/core';
import { count } from '../../../../server/report-markdown/blocks.js';
import type { DeadLinkReport } from '../../../../server/links/report.js';
import { postReview } from '../../../shared/src/pull-request-review.js';
import type { CheckOutcome } from '../check-phase.js';
import type { DeadlinksSettings } from '../settings.js';
import { fixNotes, type ReviewOutcome } from './fix-notes.js';
import { planFixes } from './plan-fixes.js';

/** Most new suggestions in one review; the rest wait for the next run (a huge review is slow to post and to read). */
export const maxSuggestions = 100;

/**
 * On a changed_only pull request run whose report carries fixes (`suggest_fixes`): one
 * review with a suggestion per place that can take one, then the PR comment's lines on what
 * was offered and what is left. A review GitHub refuses (a fork's read-only token) is a
 * warning and a line in the comment, not a failed check.
 */
export async function offerFixes(s: DeadlinksSettings, outcome: CheckOutcome, report: DeadLinkReport): Promise<string[]> {
  const pr = s.github.pullRequest;
  if (!s.suggestions || !pr || !outcome.changedLines) return [];
  const plan = await planFixes(report, { workspace: s.github.workspace, headSha: pr.headSha, changed: outcome.changedLines, key: s.comment.key });
  let review: ReviewOutcome;
  if (!plan.fixes.length) review = { kind: 'posted', review: { posted: 0, repeated: 0, held: [] } };
  else if (!s.githubToken) review = { kind: 'failed', reason: 'there is no github_token' };
  else {
    const [owner, repo] = s.github.repository.split('/');
    const body = (n: number) => `SiteLens dead-link check: ${count(n, 'suggested fix', 'suggested fixes')} for links on lines this pull request changes. Each replaces only the link.`;
    try {
      const target = { token: s.githubToken, apiUrl: s.github.apiUrl, owner, repo, pullNumber: pr.number, commitId: pr.headSha };
      const posted = await postReview(target, body, plan.fixes, maxSuggestions);
      review = { kind: 'posted', review: posted };
      core.info(`Review: ${count(posted.posted, 'suggestion')} posted, ${posted.repeated} already in the pull request, ${posted.held.length} held for a later run.`);
    } catch (err) {
      const status = (err as { status?: number }).status;
      const reason = `GitHub refused the review${status ? ` (${status})` : ''}: ${(err as Error).message.split('\n')[0]}`;
      core.warning(`Could not post the suggestions: ${reason}`);
      review = { kind: 'failed', reason };
    }
  }
  return fixNotes(report, plan, review, maxSuggestions);
}
