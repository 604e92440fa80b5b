import { readFileSync } from 'node:fs';

/** What the actions read from the runner's environment, once, in their settings. */
export interface GithubEnv {
  /** owner/repo of the workflow's repository. */
  repository: string;
  apiUrl: string;
  eventName: string;
  /** The pull request number on pull_request / pull_request_target events. */
  pullRequest?: number;
  /** The pull request's head commit on those events. */
  pullRequestHeadSha?: string;
  /** Directory for the JSON report (RUNNER_TEMP, else the OS temp dir). */
  tempDir?: string;
}

export function readGithubEnv(env: NodeJS.ProcessEnv): GithubEnv {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const pr = eventName.startsWith('pull_request') ? pullRequestOf(env.GITHUB_EVENT_PATH) : {};
  return {
    repository: env.GITHUB_REPOSITORY ?? '',
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    eventName,
    pullRequest: pr.number,
    pullRequestHeadSha: pr.headSha,
    tempDir: env.RUNNER_TEMP || undefined,
  };
}

function pullRequestOf(eventPath: string | undefined): { number?: number; headSha?: string } {
  if (!eventPath) return {};
  const payload = JSON.parse(readFileSync(eventPath, 'utf8')) as { pull_request?: { number?: unknown; head?: { sha?: unknown } }; number?: unknown };
  const n = payload.pull_request?.number ?? payload.number;
  const sha = payload.pull_request?.head?.sha;
  return { number: typeof n === 'number' ? n : undefined, headSha: typeof sha === 'string' ? sha : undefined };
}
