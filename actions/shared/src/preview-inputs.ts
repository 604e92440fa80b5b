import * as core from '@actions/core';
import type { GithubEnv } from './github-env.js';
import { bool, int } from './inputs.js';

/** How an action reaches the deployment it checks: waiting for it, and headers for a protected one. */
export interface PreviewAccess {
  /** `wait_for_url`: poll the deployment until it is up, at most `timeoutSeconds`. Unset: no waiting. */
  wait?: { timeoutSeconds: number };
  /** `target_headers`: sent to the deployment's own origin only (by the service, and by the runner's poll). */
  targetHeaders?: Record<string, string>;
}

/** `wait_timeout` bounds, in s. */
export const waitTimeoutRange = { min: 10, max: 3600 } as const;
const DEFAULT_WAIT_SECONDS = 300;

export function readPreviewAccess(): PreviewAccess {
  // Headers first, so their values are masked before anything else could print them.
  const targetHeaders = readTargetHeaders();
  const timeoutSeconds = int('wait_timeout', waitTimeoutRange) ?? DEFAULT_WAIT_SECONDS;
  return { wait: bool('wait_for_url', false) ? { timeoutSeconds } : undefined, targetHeaders };
}

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `target_headers`: one `Name: value` per line (`x-vercel-protection-bypass: ${{ secrets.… }}`).
 * Every value is masked in the log (`::add-mask::`) before it is checked; a message about a
 * line names its number, never its content. The service checks the rest (refused names, sizes).
 */
export function readTargetHeaders(): Record<string, string> | undefined {
  const lines = core.getInput('target_headers').split(/\r?\n/);
  const headers: Record<string, string> = {};
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const colon = line.indexOf(':');
    const value = colon > 0 ? line.slice(colon + 1).trim() : line.trim();
    if (value) core.setSecret(value);
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!token.test(name) || !value) throw new Error(`input target_headers: line ${i + 1} must be "Name: value" (a header name, a colon, then its value)`);
    if (Object.keys(headers).some((n) => n.toLowerCase() === name.toLowerCase())) throw new Error(`input target_headers: ${name} is given twice`);
    headers[name] = value;
  });
  return Object.keys(headers).length ? headers : undefined;
}

/** Thrown by settings when the run has nothing to do; the action ends green with its message as a notice. */
export class SkipRun extends Error {}

/**
 * On a `deployment_status` event that does not report success (pending, failure, error …),
 * the action does nothing: it runs again on the event that says the deployment is up. Called
 * by the settings right after the environment is read, before inputs that need the deployment.
 */
export function skipUnlessDeployed(github: GithubEnv): void {
  const d = github.deployment;
  if (github.eventName !== 'deployment_status' || !d || d.state === 'success') return;
  throw new SkipRun(`The deployment${d.environment ? ` to ${d.environment}` : ''} is ${d.state}, not success: nothing to check now. The check runs on the deployment_status event that reports success.`);
}

/** The deployment's URL on a successful `deployment_status` event, logged with where it came from. */
export function deploymentUrl(github: GithubEnv, input: string): string | undefined {
  const d = github.deployment;
  if (github.eventName !== 'deployment_status' || !d?.url) return undefined;
  core.info(`${input}: ${d.url}, the deployment_status event's ${d.urlFrom}${d.environment ? ` (environment ${d.environment})` : ''}.`);
  return d.url;
}
