import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../server/api/app.js';
import { composeService, type Service } from '../../server/compose.js';
import { createWorkers } from '../../server/workers/index.js';
import type { Tier } from '../../server/keys/tiers.js';
import { createConfig } from '../../server/config.js';
import { sharedBrowserPool } from './browser.js';

export interface TestService extends Service {
  /** Base URL of the running app, e.g. http://127.0.0.1:41234 */
  url: string;
  server: Server;
  /** GET/POST helper returning status, headers and parsed body. */
  call(path: string, init?: RequestInit & { json?: unknown }): Promise<CallResult>;
  /**
   * Creates an active key (through the store, so the per-IP key-creation limit does not
   * apply), anonymous free by default; a paid tier lifts the per-minute quota for busy tests.
   */
  newKey(tier?: Tier): Promise<string>;
  /** Sets a key's tier/status through the store (the operator's command does the same). */
  setKey(plain: string, change: Parameters<Service['deps']['keys']['update']>[1]): Promise<void>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
  buffer: Buffer;
}

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * Starts the real app (real Redis, isolated by a unique key prefix) on a free loopback
 * port. Private targets are allowed unless `env` says otherwise.
 */
export async function startTestService(env: Record<string, string> = {}, opts: { workers?: boolean } = {}): Promise<TestService> {
  const port = await freePort();
  const config = createConfig({
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    REDIS_URL: process.env.TEST_REDIS_URL ?? process.env.REDIS_URL,
    REDIS_DATA_DIR: './data/redis-test',
    REDIS_PREFIX: `test:${crypto.randomBytes(6).toString('hex')}:`,
    ALLOW_PRIVATE_TARGETS: 'true',
    ...env,
  });
  const service = await composeService(config, { browser: sharedBrowserPool() });
  const workers = opts.workers ? createWorkers(service.deps, service.redisHandle.connection) : undefined;
  const server = createApp(service.deps).listen(port, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const url = `http://127.0.0.1:${port}`;

  const call = async (path: string, init: RequestInit & { json?: unknown } = {}): Promise<CallResult> => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('content-type', 'application/json');
    const res = await fetch(url + path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    const buffer = Buffer.from(await res.arrayBuffer());
    const text = buffer.toString('utf8');
    let body: any = undefined;
    if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
    return { status: res.status, headers: res.headers, body, text, buffer };
  };

  return {
    ...service,
    url,
    server,
    call,
    async newKey(tier) {
      const { plain, record } = await service.deps.keys.create();
      if (tier && tier !== 'free') await service.deps.keys.update(record.hash, { tier });
      return plain;
    },
    async setKey(plain, change) {
      const key = await service.deps.keys.findByPlain(plain);
      if (!key) throw new Error('no such key');
      await service.deps.keys.update(key.hash, change);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await workers?.close();
      await service.close();
    },
  };
}
