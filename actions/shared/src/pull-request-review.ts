import { getOctokit } from '@actions/github';

/** A review comment on one line of the pull request's head (`side: RIGHT`). */
export interface LineComment {
  path: string;
  line: number;
  body: string;
  /** A hidden line of `body` that names this comment; one already on the same path and line is not posted again. */
  marker: string;
}

export interface ReviewTarget {
  token: string;
  /** GitHub REST base (GHES: https://host/api/v3). */
  apiUrl: string;
  owner: string;
  repo: string;
  pullNumber: number;
  /** The head commit the lines are in. */
  commitId?: string;
}

export interface PostedReview {
  /** Comments in the new review (none: no review was made). */
  posted: number;
  /** Comments left out because the pull request already has them. */
  repeated: number;
  /** The review's web address, when one was made. */
  url?: string;
}

/**
 * One review (event COMMENT) with the comments the pull request does not have yet: an
 * earlier run's comment with the same marker on the same path and line is not repeated.
 * Nothing new: no review at all, so a re-run does not add empty reviews.
 */
export async function postReview(t: ReviewTarget, body: string, comments: LineComment[]): Promise<PostedReview> {
  if (!comments.length) return { posted: 0, repeated: 0 };
  const octokit = getOctokit(t.token, { baseUrl: t.apiUrl });
  const where = { owner: t.owner, repo: t.repo, pull_number: t.pullNumber };
  const existing = await octokit.paginate(octokit.rest.pulls.listReviewComments, { ...where, per_page: 100 });
  const already = (c: LineComment) => existing.some((e) => e.path === c.path && (e.line ?? e.original_line) === c.line && e.body.includes(c.marker));
  const fresh = comments.filter((c) => !already(c));
  const repeated = comments.length - fresh.length;
  if (!fresh.length) return { posted: 0, repeated };
  const review = await octokit.rest.pulls.createReview({
    ...where,
    commit_id: t.commitId,
    event: 'COMMENT',
    body,
    comments: fresh.map((c) => ({ path: c.path, line: c.line, side: 'RIGHT' as const, body: c.body })),
  });
  return { posted: fresh.length, repeated, url: review.data.html_url };
}
