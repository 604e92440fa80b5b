import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { pause, timeBound } from '../time-bounds.js';

export interface RedisHandle {
  /** For commands behind HTTP: fail fast instead of queueing while Redis is down. */
  redis: Redis;
  /** Where Redis is, with the reconnect rule every client of this process shares. */
  connection: RedisOptions;
  /** Options for BullMQ producers behind HTTP (Queue): no offline queue, bounded commands. */
  producerConnection: RedisOptions;
  /** Options for BullMQ workers: blocking commands wait for Redis (`maxRetriesPerRequest: null`). */
  workerConnection: RedisOptions;
  /** Which Redis this is, for the start-up log: the URL without its password, the Sentinels, or the embedded server. */
  label: string;
  /** Stops the embedded server, if one was started. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  url?: string;
  /** A Redis that fails over: ask these Sentinels for the primary (exclusive with `url`). */
  sentinel?: SentinelTarget;
  dataDir: string;
  /** Longest wait for one command on the request path, in ms. @default 500 */
  commandTimeoutMs?: number;
  /** Where connection problems are said (a line every few seconds while Redis is away). */
  log?: Logger;
}

export interface SentinelTarget {
  sentinels: Array<{ host: string; port: number }>;
  /** The primary's name in the Sentinels' `sentinel monitor` line. */
  name: string;
  username?: string;
  password?: string;
  sentinelPassword?: string;
  /** TLS to the Sentinels and to the data nodes. */
  tls: boolean;
}

/** Where the service's settings say Redis is. */
export function connectOptionsOf(config: Config): ConnectOptions {
  const sentinel: SentinelTarget | undefined = config.REDIS_SENTINELS && {
    sentinels: config.REDIS_SENTINELS,
    name: config.REDIS_SENTINEL_NAME,
    username: config.REDIS_USERNAME,
    password: config.REDIS_PASSWORD,
    sentinelPassword: config.REDIS_SENTINEL_PASSWORD,
    tls: config.REDIS_TLS,
  };
  return { url: config.REDIS_URL, sentinel, dataDir: config.REDIS_DATA_DIR, commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS };
}

/** How soon a lost connection is tried again: every client is back within this after Redis is. */
export const RECONNECT_MS = 250;

/** How long a starting process waits for its Redis before it serves without it. */
export const STARTUP_WAIT_MS = 10_000;

/**
 * Connects to `url`; without one, to 127.0.0.1:6379 when something answers there,
 * else starts a private redis-server (AOF on, data under `dataDir`, unix socket).
 *
 * While Redis is away nothing waits for it on the request path: commands fail at once
 * (no offline queue, no retries) or after `commandTimeoutMs` when Redis hangs, and the
 * error maps to 503 with Retry-After. Every client reconnects every RECONNECT_MS (ioredis's
 * and BullMQ's own backoff grows to 20 s), so all work again as soon as Redis is back.
 */
export async function connectRedis(opts: ConnectOptions): Promise<RedisHandle> {
  let child: ChildProcess | undefined;
  let { where, label } = (await locateRedis(opts)) ?? { where: undefined, label: '' };
  if (!where) {
    ({ child, connection: where } = await startEmbedded(opts.dataDir));
    label = `embedded redis-server (REDIS_URL unset; data in ${path.resolve(opts.dataDir)})`;
  }
  const commandTimeout = opts.commandTimeoutMs ?? 500;
  const connection: RedisOptions = {
    ...where,
    connectTimeout: Math.max(1_000, commandTimeout * 2),
    retryStrategy: () => RECONNECT_MS,
    // A primary demoted by a failover answers writes with READONLY: reconnect (through the
    // Sentinels, to the new primary) and send the refused command again; it was not run.
    reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
  };
  const producerConnection: RedisOptions = { ...connection, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout };
  // Auto-pipelining batches the commands of concurrent requests into one write: fewer syscalls under load.
  const redis = new Redis({ ...producerConnection, lazyConnect: true, enableAutoPipelining: true });
  let lastWarning = 0;
  redis.on('error', (err: Error) => {
    // While Redis is away the client retries every RECONNECT_MS; one line every few seconds says so.
    if (Date.now() - lastWarning < 5_000) return;
    lastWarning = Date.now();
    opts.log?.warn({ err: err.message, redis: label }, 'redis connection error');
  });
  // A Redis slow to answer (a loaded machine, containers starting together) gets a while
  // before the process serves; one that stays away does not stop it: it serves 503 with
  // Retry-After and /readyz fails until the client, trying every RECONNECT_MS, gets through.
  await redis.connect().catch(async (err: Error) => {
    opts.log?.warn({ err: err.message, redis: label, waitMs: STARTUP_WAIT_MS }, 'redis not reachable yet; waiting for it');
    // Not events.once: it rejects on the 'error' events a reconnecting client emits meanwhile.
    const ready = await timeBound(new Promise<true>((resolve) => redis.once('ready', () => resolve(true))), STARTUP_WAIT_MS);
    if (!ready) opts.log?.warn({ redis: label }, 'starting without redis: requests that need it answer 503 until it is reachable');
  });
  return {
    redis,
    connection,
    producerConnection,
    workerConnection: { ...connection, maxRetriesPerRequest: null },
    label,
    async close() {
      await redis.quit().catch(() => redis.disconnect());
      if (child && child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/**
 * The Redis the settings name (Sentinels, REDIS_URL), else one answering on 127.0.0.1:6379,
 * with how the logs name it; undefined when there is none (the service then starts its own).
 */
export async function locateRedis(opts: Pick<ConnectOptions, 'url' | 'sentinel'>): Promise<{ where: RedisOptions; label: string } | undefined> {
  if (opts.sentinel) {
    const sentinels = opts.sentinel.sentinels.map((s) => `${s.host}:${s.port}`).join(',');
    return { where: sentinelOptions(opts.sentinel), label: `sentinels ${sentinels} (primary ${opts.sentinel.name})` };
  }
  if (opts.url) return { where: optionsFromUrl(opts.url), label: withoutPassword(opts.url) };
  if (await answers({ host: '127.0.0.1', port: 6379 })) {
    return { where: { host: '127.0.0.1', port: 6379 }, label: 'redis://127.0.0.1:6379 (REDIS_URL unset; one was answering there)' };
  }
  return undefined;
}

/** ioredis options for a `redis:`, `rediss:` or `unix:` URL. */
export function optionsFromUrl(url: string): RedisOptions {
  const u = new URL(url);
  if (u.protocol === 'unix:') return { path: u.pathname };
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined,
    tls: u.protocol === 'rediss:' ? {} : undefined,
  };
}

/**
 * ioredis options that ask the Sentinels for the primary: a lost connection asks them again
 * every RECONNECT_MS, and a demoted primary's READONLY sends it back to them (reconnectOnError).
 * ioredis's `failoverDetector` stays off: in ioredis 6.0.0 a `+switch-master` that arrives while
 * the client is reconnecting ends the client for good ("Connection is closed", seen in the
 * failover test one run in two).
 */
export function sentinelOptions(t: SentinelTarget): RedisOptions {
  return {
    sentinels: t.sentinels,
    name: t.name,
    role: 'master',
    username: t.username,
    password: t.password,
    sentinelPassword: t.sentinelPassword,
    enableTLSForSentinelMode: t.tls,
    tls: t.tls ? {} : undefined,
    sentinelTLS: t.tls ? {} : undefined,
    sentinelRetryStrategy: () => RECONNECT_MS,
  };
}

/** The URL as an operator may read it in a log: the password replaced by `***`. */
function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'an unparsable REDIS_URL';
  }
}

/** True when a Redis answers PING there (one try, half a second). */
async function answers(options: RedisOptions): Promise<boolean> {
  const probe = new Redis({ ...options, lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {}); // the probe's failure is the answer
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Where the embedded redis-server listens (operator commands find a running service's store there). */
export const embeddedSocketPath = (dataDir: string) => path.join(path.resolve(dataDir), 'redis.sock');

/** Starts a private redis-server on a unix socket under `dataDir`, AOF on. */
export async function startEmbedded(dataDir: string): Promise<{ child: ChildProcess; connection: RedisOptions }> {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const socket = embeddedSocketPath(dir);
  const child = spawn(
    'redis-server',
    ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--dir', dir, '--appendonly', 'yes', '--save', '', '--daemonize', 'no'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (err) => reject(new Error(`cannot start redis-server (is it installed?): ${err.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}`)));
  });
  const connection = { path: socket };
  const ready = (async () => {
    for (let i = 0; i < 100; i++) {
      if (fs.existsSync(socket) && (await answers(connection))) return;
      await pause(50);
    }
    throw new Error('redis-server did not answer within 5 s');
  })();
  await Promise.race([ready, failed]);
  failed.catch(() => {}); // later exits are handled by the caller's connection errors
  return { child, connection };
}
