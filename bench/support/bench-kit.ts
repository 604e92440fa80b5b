/**
 * What the benches share: the generated link site in its own process, medians, command-line
 * flags and the machine's load beside every figure.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';

/** `--name value` from the command line, or `fallback`. */
export function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

export const numberFlag = (name: string, fallback: number) => Number(flag(name, String(fallback)));

export const hasFlag = (name: string) => process.argv.includes(`--${name}`);

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The 1-minute load average and the cores, as `uptime` reads them: the load a figure ran under. */
export const load = () => `${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`;

export interface Timed<T> {
  /** Median wall time of the runs, in seconds. */
  seconds: number;
  /** Every run's time, in seconds. */
  all: number[];
  /** Load average when the runs ended. */
  load: string;
  last: T;
}

/** Runs `fn` `runs` times one after another; the median and the last result. */
export async function timed<T>(runs: number, fn: () => Promise<T>): Promise<Timed<T>> {
  if (runs < 1) throw new Error('timed needs at least one run');
  const all: number[] = [];
  const results: T[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    results.push(await fn());
    all.push((performance.now() - t) / 1000);
  }
  return { seconds: median(all), all, load: load(), last: results[results.length - 1] };
}

/**
 * A bench server (a script that sends `{ port }` when listening) in its own process, so the
 * tools under test get the same share of the cores: a server in the bench's process would
 * take our crawler's event loop and not a peer's.
 */
export async function startServerProcess(script: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess; close(): void }> {
  const child = fork(script, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env } });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, close: () => void child.kill('SIGTERM') };
}

/** The generated link site (`bench/support/link-site.ts`). */
export const startLinkSite = (env: Record<string, string>) => startServerProcess('bench/support/link-site.ts', env);
