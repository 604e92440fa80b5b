import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { freePort } from '../../support/service.js';
import { until } from '../../support/wait.js';

export type Mode = 'serve' | 'api' | 'worker';

/** The service as an operator runs it: `node --import tsx server/main.ts <mode>` in its own process. */
export interface ServiceProcess {
  pid: number;
  mode: Mode;
  /** Base URL: the API (api and serve modes), or the worker's probes and metrics. */
  url: string;
  /** Everything the process wrote (pino JSON lines and stderr). */
  output(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): void;
}

/** Settings every spawned service of a test shares: its own prefix, fast job recovery, loopback targets. */
export function baseEnv(redisUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `fault:${crypto.randomBytes(5).toString('hex')}:`,
    ALLOW_PRIVATE_TARGETS: 'true',
    LOG_LEVEL: 'info',
    JOB_LOCK_MS: '1500',
    JOB_STALLED_INTERVAL_MS: '500',
    WEBHOOK_BACKOFF_MS: '100',
    BROWSER_WARM_SPARE: 'false',
    ...extra,
  };
}

/** Starts a service process and resolves once it listens (or, for a worker, has started). */
export async function spawnService(mode: Mode, env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', mode], {
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), WORKER_PORT: '0', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const ready = mode === 'worker' ? '"worker started"' : '"service listening"';
  let gone = false;
  void exited.then(() => (gone = true));
  await until(`${mode} process to start`, () => {
    if (gone) throw new Error(`the ${mode} process exited during start:\n${log}`);
    return log.includes(ready) ? true : undefined;
  }, 60_000);
  // A worker listens for its probes on a port of its choosing (WORKER_PORT=0) and logs it.
  const workerPort = mode === 'worker' ? /"port":(\d+)[^\n]*"worker started"/.exec(log)?.[1] : undefined;
  return {
    pid: child.pid ?? 0,
    mode,
    url: `http://127.0.0.1:${workerPort || port}`,
    output: () => log,
    exited,
    kill: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** Kills the process (if it runs) and waits for it to be gone. */
export async function stopService(p: ServiceProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!p) return;
  p.kill(signal);
  await p.exited;
}

/** The suite's shared Redis (root hooks set it), for tests that never stop it. */
export const sharedRedisUrl = () => process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
