import { getOctokit } from '@actions/github';
import type { GithubEnv, PullRequest } from '../../../shared/src/github-env.js';
import { git } from '../documents/repository-paths.js';
import { addedLines, parseGitDiff, toRanges, type ChangedLines } from './unified-diff.js';

export interface PullRequestChanges {
  lines: ChangedLines;
  /** Where the diff came from, for the summary. */
  from: string;
}

/** GitHub lists at most this many files of a pull request. */
const filesApiCap = 3000;

/**
 * The lines a pull request adds or changes, per file, in the coordinates of the files in
 * the checkout. From git when the checkout has the history (exact for whatever commit is
 * checked out), else from the pull request files API's patches (the PR head's lines).
 */
export async function pullRequestChanges(workspace: string, pr: PullRequest, github: GithubEnv, token: string): Promise<PullRequestChanges> {
  const base = await baseInCheckout(workspace, pr);
  if (base) {
    const diff = await git(workspace, ['-c', 'core.quotePath=false', 'diff', '--find-renames', '--unified=0', '--no-color', '--no-ext-diff', '--src-prefix=a/', '--dst-prefix=b/', base, 'HEAD']);
    if (diff !== undefined) return { lines: parseGitDiff(diff), from: `git diff ${base.slice(0, 7)}..HEAD in the checkout` };
  }
  if (!token) throw new Error('changed_only needs the pull request\'s diff: the checkout lacks the base commit (use fetch-depth: 2 or 0) and there is no github_token for the pull request files API');
  return { lines: await filesApiChanges(pr.number, github, token), from: 'the pull request files API' };
}

/**
 * The commit to diff HEAD against, when the checkout has it: the first parent of the test
 * merge commit actions/checkout checks out on pull_request (needs fetch-depth 2), or the
 * merge base of the base branch when HEAD is the PR's head itself (needs the history).
 */
async function baseInCheckout(workspace: string, pr: PullRequest): Promise<string | undefined> {
  const line = (await git(workspace, ['rev-list', '--parents', '-n', '1', 'HEAD']))?.trim();
  if (!line) return undefined;
  const [head, ...parents] = line.split(' ');
  const present = async (sha: string) => (await git(workspace, ['cat-file', '-e', `${sha}^{commit}`])) !== undefined;
  if (parents.length === 2 && parents[1] === pr.headSha && (await present(parents[0]))) return parents[0];
  if (head === pr.headSha && pr.baseSha && (await present(pr.baseSha))) return (await git(workspace, ['merge-base', pr.baseSha, 'HEAD']))?.trim() || undefined;
  return undefined;
}

async function filesApiChanges(number: number, github: GithubEnv, token: string): Promise<ChangedLines> {
  const octokit = getOctokit(token, { baseUrl: github.apiUrl });
  const [owner, repo] = github.repository.split('/');
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, { owner, repo, pull_number: number, per_page: 100 });
  if (files.length >= filesApiCap) {
    throw new Error(`changed_only: the pull request changes ${filesApiCap} files or more, past what GitHub's files API lists; check out with fetch-depth: 2 so the diff comes from git`);
  }
  const out: ChangedLines = new Map();
  for (const f of files) {
    if (f.status === 'removed') continue;
    // GitHub leaves `patch` out for large diffs: every line of such a file counts as changed.
    out.set(f.filename, f.patch === undefined ? 'all' : toRanges(addedLines(f.patch)));
  }
  return out;
}
