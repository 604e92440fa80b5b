import { expect } from 'chai';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { keyMaker } from './support/keys.js';
import { startOwnRedis, type OwnRedis } from './support/redis-server.js';
import { baseEnv, spawnService, stopService, type ServiceProcess } from './support/service-process.js';
import { Redis } from 'ioredis';
import { until } from '../support/wait.js';

interface Answer {
  status: number;
  retryAfter: string | null;
  /** The JSON body; empty for another type (the badge's SVG). */
  body: { error?: string; status?: string; redis?: string };
}

describe('faults: Redis down and back', function () {
  this.timeout(120_000);
  let redis: OwnRedis;
  let service: ServiceProcess;
  let site: FixtureServer;
  let prefix: string;

  before(async () => {
    redis = await startOwnRedis();
    site = await serve({
      '/': '<title>page</title><body style="background:#00f">page</body>',
    });
    const env = baseEnv(redis.url);
    prefix = env.REDIS_PREFIX;
    service = await spawnService('serve', env);
  });
  after(async () => {
    await stopService(service);
    await redis.close();
    await site.close();
  });

  /** A request that does not come back within 10 s fails the test: the service must answer, not hang. */
  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(service.url + path, { ...init, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    const body = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : {};
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
  };
  const json = (body: unknown, key?: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'X-API-Key': key } : {}) },
    body: JSON.stringify(body),
  });

  /** One request of each kind that needs the store. */
  const requests = (key: string) => ({
    'POST /api/keys': () => call('/api/keys', { method: 'POST' }),
    'GET /api/usage': () => call('/api/usage', { headers: { 'X-API-Key': key } }),
    'GET /api/perf (keyless)': () => call(`/api/perf?url=${encodeURIComponent(site.url)}`),
    'POST /api/screenshot/queue': () => call('/api/screenshot/queue', json({ url: `${site.url}/`, format: 'png' }, key)),
    'GET /api/screenshot/status/{id}': () => call('/api/screenshot/status/some-job', { headers: { 'X-API-Key': key } }),
    // An outage is the service's, not the site's: no "unknown" badge a cache would keep.
    'GET /api/deadlinks/badge': () => call(`/api/deadlinks/badge?url=${encodeURIComponent(site.url)}`),
  });

  it('every endpoint that needs Redis answers 503 JSON with Retry-After while it is stopped (none hangs), and health says degraded', async () => {
    const keys = await keyMaker(redis.url, prefix);
    const { key } = await keys.newKey('pro');
    await keys.close();
    await redis.stop();

    for (const [name, request] of Object.entries(requests(key))) {
      const a = await request();
      expect(a.status, name).to.equal(503);
      expect(a.retryAfter, name).to.match(/^\d+$/);
      expect(a.body.error, name).to.match(/Redis.*unavailable.*retry/);
    }
    const health = await call('/api/health');
    expect(health.status).to.equal(200);
    expect(health.body).to.include({ status: 'degraded', redis: 'unavailable' });
  });

  it('when Redis hangs (SIGSTOP), requests answer 503 after the command timeout instead of hanging', async () => {
    await redis.start();
    const keys = await keyMaker(redis.url, prefix);
    const { key } = await keys.newKey('pro');
    await keys.close();
    await until('the service to see Redis again', async () => ((await call('/api/usage', { headers: { 'X-API-Key': key } })).status === 200 ? true : undefined));
    redis.freeze();
    try {
      const a = await call('/api/usage', { headers: { 'X-API-Key': key } });
      expect(a.status).to.equal(503);
      expect(a.retryAfter).to.match(/^\d+$/);
    } finally {
      redis.thaw();
    }
  });

  it('after Redis returns, keys, limits, the badge and the queue work again, without a restart', async () => {
    await redis.stop();
    expect((await call('/api/keys', { method: 'POST' })).status).to.equal(503);
    await redis.start();
    // A fresh Redis (no persistence in this test): the key is made again, as a caller would.
    const keys = await keyMaker(redis.url, prefix);
    const { key } = await keys.newKey('pro');
    await keys.close();

    for (const [name, request] of Object.entries(requests(key))) {
      let last: Answer | undefined;
      await until(`${name} to work again`, async () => {
        last = await request();
        return last.status < 500 ? last : undefined;
      }, 10_000).catch((err: Error) => {
        throw new Error(`${err.message}; its last answer: ${JSON.stringify(last)}`);
      });
    }

    // The queue works end to end: a worker in the same process takes the job and completes it.
    const queued = await call('/api/screenshot/queue', json({ url: `${site.url}/`, format: 'png' }, key));
    expect(queued.status).to.equal(202);
    const id = (queued.body as { job_id: string }).job_id;
    const done = await until('the queued job to complete', async () => {
      const s = await call(`/api/screenshot/status/${id}`, { headers: { 'X-API-Key': key } });
      return s.body.status === 'completed' ? s.body : undefined;
    }, 30_000);
    expect(done.status).to.equal('completed');
  });

  it('a queue whose set-up failed (Redis refused its INFO) is made again: once Redis allows it, jobs are taken without a restart', async () => {
    // BullMQ sets a queue up once (INFO for the version) and kept a failed set-up for good. An
    // ACL user that may not run INFO makes that set-up fail every time, until it is allowed.
    const admin = new Redis({ port: redis.port, host: '127.0.0.1' });
    let api: ServiceProcess | undefined;
    try {
      await admin.call('ACL', 'SETUSER', 'sitelens', 'on', '>pw', '~*', '&*', '+@all', '-info');
      const env = baseEnv(`redis://sitelens:pw@127.0.0.1:${redis.port}`);
      api = await spawnService('api', env);
      const keys = await keyMaker(redis.url, env.REDIS_PREFIX);
      const { key } = await keys.newKey('pro');
      await keys.close();
      const enqueue = () => fetch(`${api?.url}/api/screenshot/queue`, { ...json({ url: `${site.url}/`, format: 'png' }, key), signal: AbortSignal.timeout(20_000) });
      expect((await enqueue()).status).to.be.at.least(500);

      // The first call after Redis allows it: the broken queue is replaced within the call.
      await admin.call('ACL', 'SETUSER', 'sitelens', '+info');
      expect((await enqueue()).status).to.equal(202);
    } finally {
      await admin.call('ACL', 'DELUSER', 'sitelens').catch(() => undefined);
      admin.disconnect();
      await stopService(api);
    }
  });
});
