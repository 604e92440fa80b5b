import { expect } from 'chai';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { keyMaker } from './support/keys.js';
import { startSentinelSetup, type SentinelSetup } from './support/redis-sentinels.js';
import { baseEnv, spawnService, stopService, type ServiceProcess } from './support/service-process.js';
import { until } from '../support/wait.js';

interface Answer {
  name: string;
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
  at: number;
}

describe('faults: Redis fails over (a primary, two replicas, three Sentinels)', function () {
  this.timeout(180_000);
  let redis: SentinelSetup;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let site: FixtureServer;
  let prefix: string;

  before(async () => {
    redis = await startSentinelSetup();
    site = await serve({ '/': '<title>page</title><body style="background:#0a0">page</body>' });
    // No REDIS_URL: the processes ask the Sentinels where the primary is.
    const env = baseEnv('', { REDIS_SENTINELS: redis.sentinels, REDIS_SENTINEL_NAME: 'mymaster', REDIS_WAIT_REPLICAS: '1' });
    prefix = env.REDIS_PREFIX;
    [api, worker] = await Promise.all([spawnService('api', env), spawnService('worker', env)]);
  });
  after(async () => {
    await Promise.all([stopService(api), stopService(worker)]);
    await redis?.close();
    await site?.close();
  });

  const call = async (name: string, path: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(api.url + path, { ...init, signal: AbortSignal.timeout(20_000) });
    return { name, status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown>, at: Date.now() };
  };
  const withKey = (key: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...init.headers, 'X-API-Key': key, 'content-type': 'application/json' } });
  const queue = (key: string) => call('POST /api/screenshot/queue', '/api/screenshot/queue', withKey(key, { method: 'POST', body: JSON.stringify({ url: `${site.url}/`, format: 'png' }) }));
  /** One request of each kind that needs the store; `jobId` is a job of `key`'s. */
  const everyEndpoint = (key: string, jobId: string) => [
    () => call('POST /api/keys', '/api/keys', { method: 'POST' }),
    () => call('GET /api/usage', '/api/usage', withKey(key)),
    () => queue(key),
    () => call('GET /api/screenshot/status/{id}', `/api/screenshot/status/${jobId}`, withKey(key)),
  ];

  it('a primary demoted while it runs (SENTINEL FAILOVER): writes move to the new primary (READONLY handled) without a restart; what was acknowledged before is kept', async () => {
    const before = await redis.primaryPort();
    const keys = await keyMaker(`redis://127.0.0.1:${before}`, prefix);
    const { key } = await keys.newKey('business');
    await keys.close();

    const answers: Answer[] = [];
    const acknowledged: string[] = [];
    let writing = true;
    const writes = (async () => {
      // Paced under the key's 60 a minute, so every refusal seen is the store's.
      while (writing) {
        const a = await queue(key);
        answers.push(a);
        if (a.status === 202) acknowledged.push((a.body as { job_id: string }).job_id);
        await until('the next write', () => (Date.now() - a.at >= 300 ? true : undefined), 1_000, 20);
      }
    })();
    await until('a few jobs queued on the first primary', () => (acknowledged.length >= 3 ? true : undefined));
    // Writes acknowledged while the Sentinels switch may be lost (README: Redis that fails over); the ones before may not.
    const beforeFailover = [...acknowledged];
    await redis.failover();
    const now = await redis.waitForPromotionFrom(before);
    // The Sentinels demote the old primary once the new one is up; clients still on it get READONLY.
    await until('the old primary to be a replica', async () => ((await redis.role(before)) === 'slave' ? true : undefined));
    const atDemotion = acknowledged.length;
    await until('writes to go on after the demotion', () => (acknowledged.length >= atDemotion + 3 ? true : undefined), 20_000).catch((err: Error) => {
      throw new Error(`${err.message}; answers since: ${answers.slice(-8).map((a) => `${a.status} ${JSON.stringify(a.body).slice(0, 80)}`).join(' | ')}`);
    });
    writing = false;
    await writes;

    expect(now).to.not.equal(before);
    for (const a of answers.filter((x) => x.status !== 202)) {
      expect(a.status, JSON.stringify(a.body)).to.equal(503);
      expect(a.retryAfter).to.match(/^\d+$/);
    }
    for (const id of beforeFailover) {
      const done = await until(`job ${id} to complete`, async () => {
        const s = await call('status', `/api/screenshot/status/${id}`, withKey(key));
        return s.body.status === 'completed' || s.body.status === 'failed' || s.status === 404 ? s : undefined;
      }, 60_000, 200);
      expect(done.body.status, `job ${id}: ${done.status} ${JSON.stringify(done.body)}`).to.equal('completed');
    }
  });

  it('killed under load: 503 with Retry-After while the Sentinels fail over, every endpoint back within their failover plus 2 s, and no acknowledged key, count or job lost', async () => {
    // The primary demoted above follows the new one: two replicas again, one to promote and one to acknowledge.
    await redis.waitForReplicas(2);
    const primary = await redis.primaryPort();
    const keys = await keyMaker(`redis://127.0.0.1:${primary}`, prefix);
    const { key } = await keys.newKey('pro');
    await keys.close();

    // Keys made through the API and jobs queued before the kill: acknowledged, so they must survive.
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push(((await call('POST /api/keys', '/api/keys', { method: 'POST' })).body as { api_key: string }).api_key);
    const acknowledged: string[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await queue(key);
      expect(a.status).to.equal(202);
      acknowledged.push((a.body as { job_id: string }).job_id);
    }
    const usageBefore = ((await call('GET /api/usage', '/api/usage', withKey(key))).body as { calls_this_period: number }).calls_this_period;
    expect(usageBefore).to.be.greaterThan(0);

    // Load from four callers until the end of the test; every answer is kept.
    const answers: Answer[] = [];
    let loading = true;
    const load = Promise.all(
      [0, 1, 2, 3].map(async (lane) => {
        while (loading) {
          const request = everyEndpoint(key, acknowledged[0])[lane];
          const a = await request().catch((err: Error) => ({ name: `lane ${lane}`, status: 0, retryAfter: null, body: { error: err.message }, at: Date.now() }));
          answers.push(a);
          if (a.status === 202) acknowledged.push((a.body as { job_id: string }).job_id);
          if (a.name === 'POST /api/keys' && a.status === 200) made.push((a.body as { api_key: string }).api_key);
        }
      }),
    );

    const killedAt = Date.now();
    const killed = await redis.killPrimary();
    const promoted = await redis.waitForPromotionFrom(killed);
    const switchedAt = Date.now();
    // Every endpoint works again: a round in which each one answers without a 5xx.
    const backAt = await until(
      'every endpoint to work again after the failover',
      async () => {
        const round = await Promise.all(everyEndpoint(key, acknowledged[0]).map((r) => r()));
        for (const a of round) {
          if (a.status === 202) acknowledged.push((a.body as { job_id: string }).job_id);
          if (a.name === 'POST /api/keys' && a.status === 200) made.push((a.body as { api_key: string }).api_key);
        }
        return round.every((a) => a.status > 0 && a.status < 500) ? Date.now() : undefined;
      },
      30_000,
      50,
    );
    loading = false;
    await load;

    expect(promoted).to.not.equal(killed);
    expect(backAt - switchedAt, `back ${backAt - switchedAt} ms after the Sentinels switched (${switchedAt - killedAt} ms after the kill)`).to.be.at.most(2_000);
    // While Redis was away: the one refusal with Retry-After, never a 500 or a dropped connection.
    const refused = answers.filter((a) => a.status >= 500 || a.status === 0);
    for (const a of refused) {
      expect(a.status, `${a.name}: ${JSON.stringify(a.body)}`).to.equal(503);
      expect(a.retryAfter, a.name).to.match(/^\d+$/);
    }

    // Nothing acknowledged was lost: keys work, the count went on from where it was, every job completes.
    for (const k of made) expect((await call('GET /api/usage', '/api/usage', withKey(k))).status, `key ${k.slice(0, 8)}…`).to.equal(200);
    const usageAfter = ((await call('GET /api/usage', '/api/usage', withKey(key))).body as { calls_this_period: number }).calls_this_period;
    expect(usageAfter).to.be.at.least(usageBefore);
    for (const id of new Set(acknowledged)) {
      const done = await until(`job ${id} to complete`, async () => {
        const s = await call('status', `/api/screenshot/status/${id}`, withKey(key));
        return s.body.status === 'completed' || s.body.status === 'failed' ? s.body : undefined;
      }, 60_000, 200);
      expect(done.status, `job ${id}: ${JSON.stringify(done)}`).to.equal('completed');
    }
  });
});
