import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../support/service.js';
import { until } from '../../support/wait.js';
import { answers } from './redis-server.js';

export const PRIMARY_NAME = 'mymaster';

interface Node {
  port: number;
  child?: ChildProcess;
  args: string[];
}

/**
 * A Redis that fails over, on loopback: a primary, two replicas and three Sentinels (quorum 2,
 * down after 1 s), each a real process in its own folder. `killPrimary` ends the primary with
 * SIGKILL; the Sentinels promote a replica as they would in production, and one replica is
 * left to acknowledge writes (REDIS_WAIT_REPLICAS=1).
 */
export interface SentinelSetup {
  /** `REDIS_SENTINELS` for the service. */
  sentinels: string;
  /** Port of the node the Sentinels name as primary now. */
  primaryPort(): Promise<number>;
  /** Kills the current primary with SIGKILL; resolves with its port. */
  killPrimary(): Promise<number>;
  /** Waits until every Sentinel sees `count` replicas in sync with the primary. */
  waitForReplicas(count: number): Promise<void>;
  /** Asks the Sentinels for a failover while every node runs (the primary is demoted, not dead). */
  failover(): Promise<void>;
  /** Waits until the Sentinels name a primary other than `port` and it takes writes. */
  waitForPromotionFrom(port: number, timeoutMs?: number): Promise<number>;
  /** The node's replication role (`master`, `slave`), or undefined while it does not answer (a node being reconfigured drops its clients). */
  role(port: number): Promise<string | undefined>;
  close(): Promise<void>;
}

export async function startSentinelSetup(): Promise<SentinelSetup> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sitelens-sentinel-'));
  const nodes = new Map<number, Node>();
  const sentinelPorts: number[] = [];

  const launch = async (node: Node, what: string) => {
    const proc = spawn('redis-server', node.args, { stdio: 'ignore', cwd: dir });
    node.child = proc;
    await until(`${what} on port ${node.port}`, async () => ((await answers(node.port)) ? true : undefined), 10_000);
  };
  const dataNode = async (replicaOf?: number) => {
    const port = await freePort();
    const folder = path.join(dir, `redis-${port}`);
    await fs.mkdir(folder);
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', folder, '--save', '', '--appendonly', 'no'];
    if (replicaOf) args.push('--replicaof', '127.0.0.1', String(replicaOf));
    const node: Node = { port, args };
    nodes.set(port, node);
    await launch(node, replicaOf ? 'the replica' : 'the primary');
    return port;
  };

  const primary = await dataNode();
  await dataNode(primary);
  await dataNode(primary);
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const conf = path.join(dir, `sentinel-${port}.conf`);
    // Sentinels rewrite their own configuration file as they learn the setup.
    await fs.writeFile(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${PRIMARY_NAME} 127.0.0.1 ${primary} 2`,
        `sentinel down-after-milliseconds ${PRIMARY_NAME} 1000`,
        `sentinel failover-timeout ${PRIMARY_NAME} 5000`,
        `sentinel parallel-syncs ${PRIMARY_NAME} 1`,
        '',
      ].join('\n'),
    );
    const node: Node = { port, args: [conf, '--sentinel'] };
    nodes.set(port, node);
    sentinelPorts.push(port);
    await launch(node, 'a sentinel');
  }

  const sentinel = () => quietClient(sentinelPorts[0]);
  const ask = async <T>(fn: (s: Redis) => Promise<T>): Promise<T> => {
    const s = sentinel();
    try {
      return await fn(s);
    } finally {
      s.disconnect();
    }
  };
  const primaryPort = async () => Number((await ask((s) => s.call('SENTINEL', 'get-master-addr-by-name', PRIMARY_NAME) as Promise<string[]>))[1]);

  // A failover needs a replica in sync and a majority of Sentinels that know each other.
  const waitForReplicas = (count: number) => until(`the sentinels to know ${count} replicas in sync, and each other`, async () => {
    const known = await Promise.all(
      sentinelPorts.map(async (port) => {
        const s = quietClient(port);
        try {
          const others = (await s.call('SENTINEL', 'sentinels', PRIMARY_NAME)) as unknown[];
          const replicas = (await s.call('SENTINEL', 'replicas', PRIMARY_NAME)) as string[][];
          const field = (r: string[], name: string) => r[r.indexOf(name) + 1];
          const inSync = replicas.filter((r) => field(r, 'flags') === 'slave' && field(r, 'master-link-status') === 'ok');
          return others.length === 2 && inSync.length >= count;
        } finally {
          s.disconnect();
        }
      }),
    );
    return known.every(Boolean) ? true : undefined;
  }, 30_000, 200).then(() => undefined);
  await waitForReplicas(2);

  const role = async (port: number) => {
    const c = quietClient(port);
    try {
      return ((await c.call('ROLE')) as [string])[0];
    } catch {
      return undefined;
    } finally {
      c.disconnect();
    }
  };

  const stopNode = async (node: Node, signal: NodeJS.Signals) => {
    const proc = node.child;
    node.child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill(signal);
    await exited;
  };

  return {
    sentinels: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
    primaryPort,
    async killPrimary() {
      const port = await primaryPort();
      const node = nodes.get(port);
      if (!node) throw new Error(`no node on port ${port}`);
      await stopNode(node, 'SIGKILL');
      return port;
    },
    waitForReplicas,
    async failover() {
      await ask((s) => s.call('SENTINEL', 'failover', PRIMARY_NAME));
    },
    async waitForPromotionFrom(port, timeoutMs = 30_000) {
      return until(
        `a primary other than ${port}`,
        async () => {
          const now = await primaryPort().catch(() => port);
          return now !== port && (await role(now)) === 'master' ? now : undefined;
        },
        timeoutMs,
        50,
      );
    },
    role,
    async close() {
      await Promise.all([...nodes.values()].map((n) => stopNode(n, 'SIGTERM')));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** A client that fails its commands instead of retrying, whose connection errors are its commands' errors. */
function quietClient(port: number): Redis {
  const c = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1_000 });
  c.on('error', () => undefined);
  return c;
}
