import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../support/service.js';
import { until } from '../../support/wait.js';

/**
 * A redis-server of the test's own on a free loopback port that the test may stop and start
 * again (on the same port): without persistence, or with `persist` an AOF in a temporary
 * directory (as production runs it), so what was stored survives a restart. The shared Redis
 * of the suite is never touched.
 */
export interface OwnRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and waits until it answers. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startOwnRedis({ persist = false }: { persist?: boolean } = {}): Promise<OwnRedis> {
  const port = await freePort();
  const dir = persist ? fs.mkdtempSync(path.join(os.tmpdir(), 'sitelens-redis-')) : undefined;
  const storage = dir ? ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  let child: ChildProcess | undefined;

  const start = async () => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...storage], { stdio: 'ignore' });
    child = proc;
    await until(`redis-server on port ${port}`, async () => ((await answers(port)) ? true : undefined), 10_000);
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    proc.kill('SIGCONT');
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    close: async () => {
      await stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a Redis answers PING on `port` of loopback. */
export async function answers(port: number): Promise<boolean> {
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
  probe.on('error', () => undefined); // a refused probe is the answer
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
