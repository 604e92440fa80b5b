import { readFileSync } from 'node:fs';
import type { RunContext } from '../../../server/report-markdown/run-context.js';

/** The pull request of a pull_request / pull_request_target event. */
export interface PullRequest {
  number: number;
  /** The PR's head commit (what was pushed). */
  headSha?: string;
  /** The base branch's commit the PR was compared with when the event fired. */
  baseSha?: string;
}

/** A `deployment_status` event's status: whether the deployment is up, and where. */
export interface DeploymentStatus {
  /** success, failure, error, pending, in_progress, queued, inactive. */
  state: string;
  /** The deployment's address: `environment_url`, else `target_url` (deprecated by GitHub, still what some providers set). */
  url?: string;
  /** Which of the two `url` came from. */
  urlFrom?: 'environment_url' | 'target_url';
  /** The environment's name (e.g. `Preview`). */
  environment?: string;
}

/** What the actions read from the runner's environment, once, in their settings. */
export interface GithubEnv {
  /** owner/repo of the workflow's repository. */
  repository: string;
  /** https://github.com, or a GitHub Enterprise server. */
  serverUrl: string;
  /** REST base (GHES: https://host/api/v3). */
  apiUrl: string;
  eventName: string;
  /** The job's id in the workflow (`GITHUB_JOB`); matrix legs share it. */
  job: string;
  runId?: string;
  runNumber?: string;
  runAttempt?: string;
  /** The commit the workflow runs on (on pull_request: the test merge commit). */
  sha: string;
  /** The checkout (`GITHUB_WORKSPACE`), else the working directory. */
  workspace: string;
  pullRequest?: PullRequest;
  /** On `deployment_status` events: the status the event reports. */
  deployment?: DeploymentStatus;
  /** Branch or tag names the checkout is (the pushed branch or tag; a pull request's head and base branches). */
  refNames: string[];
  /** Directory for the JSON report (RUNNER_TEMP, else the OS temp dir). */
  tempDir?: string;
  /** The job summary's file (`GITHUB_STEP_SUMMARY`); unset outside Actions. */
  stepSummary?: string;
}

export function readGithubEnv(env: NodeJS.ProcessEnv): GithubEnv {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  return {
    repository: env.GITHUB_REPOSITORY ?? '',
    serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    eventName,
    job: env.GITHUB_JOB ?? '',
    runId: env.GITHUB_RUN_ID || undefined,
    runNumber: env.GITHUB_RUN_NUMBER || undefined,
    runAttempt: env.GITHUB_RUN_ATTEMPT || undefined,
    sha: env.GITHUB_SHA ?? '',
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    pullRequest: eventName.startsWith('pull_request') ? pullRequestOf(env.GITHUB_EVENT_PATH) : undefined,
    deployment: eventName === 'deployment_status' ? deploymentOf(env.GITHUB_EVENT_PATH) : undefined,
    refNames: refNamesOf(env, eventName),
    tempDir: env.RUNNER_TEMP || undefined,
    stepSummary: env.GITHUB_STEP_SUMMARY || undefined,
  };
}

/**
 * The names under which the checkout's files are the repository's: on a pull request its head
 * branch and the base branch it merges into (the test merge commit is what the base becomes);
 * on a push the branch or tag pushed (`GITHUB_REF_NAME` is `5/merge` on pull requests, not a ref of links).
 */
function refNamesOf(env: NodeJS.ProcessEnv, eventName: string): string[] {
  const names = eventName.startsWith('pull_request') ? [env.GITHUB_HEAD_REF, env.GITHUB_BASE_REF] : [env.GITHUB_REF_TYPE === 'branch' || env.GITHUB_REF_TYPE === 'tag' ? env.GITHUB_REF_NAME : undefined];
  return [...new Set(names.filter((n): n is string => !!n))];
}

function pullRequestOf(eventPath: string | undefined): PullRequest | undefined {
  if (!eventPath) return undefined;
  const payload = JSON.parse(readFileSync(eventPath, 'utf8')) as {
    pull_request?: { number?: unknown; head?: { sha?: unknown }; base?: { sha?: unknown } };
    number?: unknown;
  };
  const n = payload.pull_request?.number ?? payload.number;
  if (typeof n !== 'number') return undefined;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return { number: n, headSha: str(payload.pull_request?.head?.sha), baseSha: str(payload.pull_request?.base?.sha) };
}

/**
 * The deployment a `deployment_status` event reports. GitHub's payload has the environment's
 * address in `environment_url` and, deprecated, the status's link in `target_url` (which
 * GitHub now fills from `log_url`, so it may be a build log); Vercel, Netlify and others set
 * both to the deployment, some only `target_url`. So: `environment_url`, else `target_url`.
 */
function deploymentOf(eventPath: string | undefined): DeploymentStatus | undefined {
  if (!eventPath) return undefined;
  const payload = JSON.parse(readFileSync(eventPath, 'utf8')) as {
    deployment_status?: { state?: unknown; environment_url?: unknown; target_url?: unknown; environment?: unknown };
    deployment?: { environment?: unknown };
  };
  const status = payload.deployment_status;
  if (!status) return undefined;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const environmentUrl = str(status.environment_url);
  const targetUrl = str(status.target_url);
  return {
    state: str(status.state) ?? 'unknown',
    url: environmentUrl ?? targetUrl,
    urlFrom: environmentUrl ? 'environment_url' : targetUrl ? 'target_url' : undefined,
    environment: str(status.environment) ?? str(payload.deployment?.environment),
  };
}

/** The commit a report speaks for (a PR's head, as GitHub's checks show it) and the run, linked. */
export function runContext(g: GithubEnv): RunContext {
  const repo = `${g.serverUrl}/${g.repository}`;
  const sha = g.pullRequest?.headSha ?? g.sha;
  const attempt = Number(g.runAttempt ?? 1);
  return {
    commit: sha && g.repository ? { sha, url: `${repo}/commit/${sha}` } : undefined,
    run:
      g.runId && g.repository
        ? { label: `run ${g.runNumber ?? g.runId}${attempt > 1 ? ` (attempt ${attempt})` : ''}`, url: `${repo}/actions/runs/${g.runId}${attempt > 1 ? `/attempts/${attempt}` : ''}` }
        : undefined,
  };
}
