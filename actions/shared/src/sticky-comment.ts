import { getOctokit } from '@actions/github';
import { createHash } from 'node:crypto';
import { githubCommentLimit } from '../../../server/report-markdown/budget.js';
import { runFailureReserve } from '../../../server/report-markdown/run-context.js';

export interface StickyTarget {
  token: string;
  /** GitHub REST base, from GITHUB_API_URL (GHES: https://host/api/v3). */
  apiUrl: string;
  owner: string;
  repo: string;
  /** The pull request (an issue number). */
  issueNumber: number;
  /** The hidden first line that names the action and its key. */
  marker: string;
}

/**
 * `<!-- sitelens:deadlinks key=links/3f2a9c1b -->`: the key tells the comments of two
 * checks in one pull request apart (matrix legs, two steps). Nothing in it can end the
 * HTML comment early.
 */
export const commentMarker = (action: string, key: string) =>
  `<!-- sitelens:${action} key=${key.replace(/[^\w.:/@+=-]/g, '_').replace(/-{2,}/g, '-').slice(0, 120)} -->`;

/**
 * The default key: the job's id and a digest of what the step checks, so two matrix legs
 * (one job, two targets) keep two comments and a re-run finds its own again.
 */
export const defaultCommentKey = (job: string, what: string) => `${job || 'job'}-${createHash('sha256').update(what).digest('hex').slice(0, 10)}`;

/** The characters left for a report once the marker line is in the comment, with room for a later failed run's banner. */
export const commentBudget = (marker: string) => githubCommentLimit - marker.length - 1 - runFailureReserve;

type Octokit = ReturnType<typeof getOctokit>;

/**
 * The login of the token's own identity, as GitHub writes it on the comments it creates.
 * GraphQL `viewer` answers for user tokens and for installation tokens alike (GITHUB_TOKEN:
 * `github-actions[bot]`, an app: `<slug>[bot]`); REST `GET /user` refuses installation
 * tokens, so it is only the fallback (e.g. a GHES without GraphQL access for the token).
 */
async function tokenLogin(octokit: Octokit): Promise<string> {
  try {
    const r = await octokit.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
    return r.viewer.login;
  } catch (graphqlError) {
    try {
      return (await octokit.rest.users.getAuthenticated()).data.login;
    } catch {
      throw graphqlError;
    }
  }
}

/**
 * The action's own comment on a pull request: the one whose first line is the marker and
 * whose author is the token's identity. A comment that merely quotes the marker (written
 * by a person, or by another token) is never edited.
 */
export class StickyComment {
  private constructor(
    private readonly octokit: Octokit,
    private readonly target: StickyTarget,
    private existing: { id: number; body: string } | undefined,
  ) {}

  static async open(target: StickyTarget): Promise<StickyComment> {
    const octokit = getOctokit(target.token, { baseUrl: target.apiUrl });
    const login = await tokenLogin(octokit);
    for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, {
      owner: target.owner,
      repo: target.repo,
      issue_number: target.issueNumber,
      per_page: 100,
    })) {
      const own = page.data.find((c) => c.user?.login === login && c.body?.split('\n', 1)[0] === target.marker);
      if (own) return new StickyComment(octokit, target, { id: own.id, body: own.body ?? '' });
    }
    return new StickyComment(octokit, target, undefined);
  }

  /** The report this action posted before (without the marker), if any. */
  get previous(): string | undefined {
    return this.existing?.body.slice(this.target.marker.length + 1);
  }

  /** Creates the comment, or edits the action's own one in place. */
  async write(markdown: string): Promise<{ id: number; created: boolean }> {
    const body = `${this.target.marker}\n${markdown}`;
    const where = { owner: this.target.owner, repo: this.target.repo };
    if (this.existing) {
      await this.octokit.rest.issues.updateComment({ ...where, comment_id: this.existing.id, body });
      this.existing = { id: this.existing.id, body };
      return { id: this.existing.id, created: false };
    }
    const created = await this.octokit.rest.issues.createComment({ ...where, issue_number: this.target.issueNumber, body });
    this.existing = { id: created.data.id, body };
    return { id: created.data.id, created: true };
  }
}
