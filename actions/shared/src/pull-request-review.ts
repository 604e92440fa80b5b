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
  /** New comments past `max`, left for a later review. */
  held: LineComment[];
  /** The review's web address, when one was made. */
  url?: string;
}

/**
 * One review (event COMMENT) with the comments the pull request does not have yet, at most
 * `max` of them (the rest are `held` for a later run, so each run moves on): an earlier run's
 * comment with the same marker on the same path and line is not repeated. Nothing new: no
 * review at all, so a re-run does not add empty reviews. `body` is told how many it carries.
 */
export async function postReview(t: ReviewTarget, body: (comments: number) => string, comments: LineComment[], max: number): Promise<PostedReview> {
  if (!comments.length) return { posted: 0, repeated: 0, held: [] };
  const octokit = getOctokit(t.token, { baseUrl: t.apiUrl });
  const where = { owner: t.owner, repo: t.repo, pull_number: t.pullNumber };
  const existing = await octokit.paginate(octokit.rest.pulls.listReviewComments, { ...where, per_page: 100 });
  const already = (c: LineComment) => existing.some((e) => e.path === c.path && (e.line ?? e.original_line) === c.line && e.body.includes(c.marker));
  const fresh = comments.filter((c) => !already(c));
  const repeated = comments.length - fresh.length;
  const held = fresh.splice(max);
  if (!fresh.length) return { posted: 0, repeated, held };
  const review = await octokit.rest.pulls.createReview({
    ...where,
    commit_id: t.commitId,
    event: 'COMMENT',
    body: body(fresh.length),
    comments: fresh.map((c) => ({ path: c.path, line: c.line, side: 'RIGHT' as const, body: c.body })),
  });
  return { posted: fresh.length, repeated, held, url: review.data.html_url };
}
