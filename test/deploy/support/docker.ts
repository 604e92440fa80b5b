import { execFile } from 'node:child_process';
import net from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { until } from '../../support/wait.js';

const run = promisify(execFile);

/** The image the tests build from this checkout, once per test process. */
export const TEST_IMAGE = 'sitelens:test';

/**
 * `docker ARGS`, resolving with its stdout; a failure names the command and what it printed.
 * Docker must answer: `./run test` installs Debian's docker.io and starts dockerd.
 */
export async function docker(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<string> {
  try {
    const { stdout } = await run('docker', args, { env: { ...process.env, ...opts.env }, timeout: opts.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`docker ${args.join(' ')} failed: ${(e.stderr || e.stdout || e.message).trim().slice(-2_000)}`);
  }
}

/** Debian's docker-compose (v1), as the README's `docker-compose up` runs it. */
export async function compose(project: string, files: string[], args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const fileArgs = files.flatMap((f) => ['-f', f]);
  try {
    const { stdout, stderr } = await run('docker-compose', ['-p', project, ...fileArgs, ...args], { env: { ...process.env, ...env }, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
    return `${stdout}${stderr}`.trim();
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`docker-compose ${args.join(' ')} failed: ${(e.stderr || e.stdout || e.message).trim().slice(-2_000)}`);
  }
}

let built: Promise<string> | undefined;

/**
 * Builds the root Dockerfile into TEST_IMAGE, once per test process; layers are cached by the
 * daemon between runs. The base is `SITELENS_TEST_BASE` when set, else one made from Debian's
 * packages by deploy/docker/debian-base.sh (no registry is reachable here). CAs this machine
 * trusts beyond Debian's (a proxy on the way to the npm registry) are given to the build stage.
 */
export function buildTestImage(): Promise<string> {
  built ??= (async () => {
    const base = process.env.SITELENS_TEST_BASE ?? (await baseImage());
    await docker(['build', '--network', 'host', '--build-arg', `BASE=${base}`, '--build-arg', `EXTRA_CA_CERTS=${await extraCas()}`, '-t', TEST_IMAGE, '.'], { timeoutMs: 900_000 });
    return TEST_IMAGE;
  })();
  return built;
}

async function baseImage(): Promise<string> {
  const { stdout } = await run('deploy/docker/debian-base.sh', [], { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim().split('\n').pop() ?? '';
}

async function extraCas(): Promise<string> {
  const dir = '/usr/local/share/ca-certificates';
  const files = await readdir(dir).catch(() => [] as string[]);
  const pems = await Promise.all(files.filter((f) => f.endsWith('.crt')).map((f) => readFile(path.join(dir, f), 'utf8')));
  return pems.join('\n');
}

/** A container the test started; `stop` and `remove` are safe to call twice. */
export interface Container {
  id: string;
  /** Everything it logged (stdout and stderr). */
  logs(): Promise<string>;
  /** `docker stop` (SIGTERM, then SIGKILL after `graceSeconds`); resolves with the exit code. */
  stop(graceSeconds?: number): Promise<number>;
  exec(args: string[]): Promise<string>;
  remove(): Promise<void>;
}

/** `docker run -d ARGS`. */
export async function runContainer(args: string[]): Promise<Container> {
  const id = await docker(['run', '-d', ...args]);
  return containerOf(id);
}

export function containerOf(id: string): Container {
  return {
    id,
    logs: async () => {
      const { stdout, stderr } = await run('docker', ['logs', id], { maxBuffer: 64 * 1024 * 1024 });
      return stdout + stderr;
    },
    async stop(graceSeconds = 30) {
      await docker(['stop', '-t', String(graceSeconds), id], { timeoutMs: (graceSeconds + 30) * 1000 });
      return Number(await docker(['inspect', '-f', '{{.State.ExitCode}}', id]));
    },
    exec: (args) => docker(['exec', id, ...args]),
    async remove() {
      await docker(['rm', '-f', '-v', id]).catch(() => undefined);
    },
  };
}

/** Waits until `url` answers 200; resolves with the ms it took from `since`. */
export async function answers200(url: string, since: number, timeoutMs = 60_000): Promise<number> {
  return until(
    `${url} to answer 200`,
    async () => {
      const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status === 200, () => false);
      return ok ? Date.now() - since : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Two consecutive ports free on loopback, for compose's `P-P+1` range of two replicas. */
export async function freePortPair(): Promise<number> {
  const bindable = (port: number) =>
    new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
  for (let tries = 0; tries < 100; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    if ((await bindable(port)) && (await bindable(port + 1))) return port;
  }
  throw new Error('no two consecutive free ports on 127.0.0.1');
}

