import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Config } from './config.js';
import type { TargetPolicy } from './net/target-policy.js';

const run = promisify(execFile);

/** What a process chose at start, for its first log line: an operator reads it before anything else. */
export interface StartupFacts {
  /** The Redis in use: the URL without its password, the local one found running, or the embedded server. */
  redis: string;
  /** The Chromium executable and its version, or why it cannot be used. */
  chromium: string;
  /** Whether private and loopback targets may be fetched (`ALLOW_PRIVATE_TARGETS`). */
  private_targets: string;
  /** The docs page. */
  docs: string;
}

/** `chromium`: the promise of `chromiumVersion`, started early so it runs while the service is composed. */
export async function startupFacts(config: Config, redis: string, policy: TargetPolicy, chromium: Promise<string>): Promise<StartupFacts> {
  return {
    redis,
    chromium: await chromium,
    private_targets: privateTargets(policy.privateTargets),
    docs: `${config.baseUrl}/`,
  };
}

/** `Chromium 156.0.8078.108 (/usr/bin/chromium)`; the browser itself starts on the first render. */
export async function chromiumVersion(path: string): Promise<string> {
  try {
    const { stdout } = await run(path, ['--version'], { timeout: 10_000 });
    const version = /[\d.]{5,}/.exec(stdout)?.[0];
    return `${version ? `Chromium ${version}` : stdout.trim()} (${path})`;
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : 'does not start';
    return `${path} ${reason}: renders will answer 503; install Debian's chromium or set CHROME_PATH`;
  }
}

function privateTargets(scope: TargetPolicy['privateTargets']): string {
  if (scope === 'all') return 'allowed (ALLOW_PRIVATE_TARGETS=true)';
  if (scope === 'none') return 'refused (ALLOW_PRIVATE_TARGETS=true allows them, to check local sites)';
  return `refused, except ${scope.listed} (ALLOW_PRIVATE_TARGETS)`;
}

/** One line for an operator when the HTTP port cannot be taken, instead of a stack. `setting` names the port's variable. */
export function listenFailure(err: unknown, at: { setting: string; port: number; host: string }): string {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${at.host}:${at.port}`;
  if (code === 'EADDRINUSE') {
    return `port ${at.port} is already in use (something else listens on ${where}); stop it, or start this one with ${at.setting} set to a free port (${at.setting}=${at.port + 1})`;
  }
  if (code === 'EACCES') return `port ${at.port} needs privileges this process lacks; set ${at.setting} to 1024 or above`;
  if (code === 'EADDRNOTAVAIL') return `HOST ${at.host} is not an address of this machine; set HOST to one of its addresses, or 0.0.0.0`;
  return `cannot listen on ${where}: ${(err as Error).message}`;
}
