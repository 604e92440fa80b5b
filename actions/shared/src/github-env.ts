import { readFileSync } from 'node:fs';

/** What the actions read from the runner's environment, once, in their settings. */
export interface GithubEnv {
  /** owner/repo of the workflow's repository. */
  repository: string;
  apiUrl: string;
  eventName: string;
  /** The pull request number on pull_request / pull_request_target events. */
  pullRequest?: number;
  /** Directory for the JSON report (RUNNER_TEMP, else the OS temp dir). */
  tempDir?: string;
}

export function readGithubEnv(env: NodeJS.ProcessEnv): GithubEnv {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  return {
    repository: env.GITHUB_REPOSITORY ?? '',
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    eventName,
    pullRequest: eventName.startsWith('pull_request') ? pullRequestNumber(env.GITHUB_EVENT_PATH) : undefined,
    tempDir: env.RUNNER_TEMP || undefined,
  };
}

function pullRequestNumber(eventPath: string | undefined): number | undefined {
  if (!eventPath) return undefined;
  const payload = JSON.parse(readFileSync(eventPath, 'utf8')) as { pull_request?: { number?: unknown }; number?: unknown };
  const n = payload.pull_request?.number ?? payload.number;
  return typeof n === 'number' ? n : undefined;
}
