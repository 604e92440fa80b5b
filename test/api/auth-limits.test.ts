import { expect } from 'chai';
import crypto from 'node:crypto';
import { createApp } from '../../server/api/app.js';
import { defineRoute } from '../../server/api/route.js';
import { allRoutes } from '../../server/api/routes/index.js';
import { startTestService, type TestService } from '../support/service.js';

/** A metered route with the perf API's limits, so the mechanism is tested apart from any domain. */
const probeRoute = (key: 'optional' | 'required') =>
  defineRoute({
    api: 'perf',
    method: 'get',
    path: `/test/${key}`,
    summary: 'probe',
    key,
    limit: 'perf',
    responses: { 200: { description: 'ok' } },
    handler: ({ res }) => void res.json({ ok: true }),
  });

async function withProbe(svc: TestService) {
  const app = createApp(svc.deps, [probeRoute('optional'), probeRoute('required'), ...allRoutes(svc.deps)]);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

describe('auth and limits', () => {
  let svc: TestService;
  let probe: Awaited<ReturnType<typeof withProbe>>;
  before(async () => {
    svc = await startTestService();
    probe = await withProbe(svc);
  });
  after(async () => {
    await probe.close();
    await svc.close();
  });

  it('accepts the key as X-API-Key, Authorization: Bearer and ?key=', async () => {
    const key = await svc.newKey();
    for (const init of [{ headers: { 'X-API-Key': key } as Record<string, string> }, { headers: { Authorization: `Bearer ${key}` } as Record<string, string> }]) {
      expect((await svc.call('/api/usage', init)).status).to.equal(200);
    }
    expect((await svc.call(`/api/usage?key=${encodeURIComponent(key)}`)).status).to.equal(200);
  });

  it('a key-only endpoint, without a key or with an unknown one, answers 401', async () => {
    const none = await fetch(`${probe.url}/test/required`);
    expect(none.status).to.equal(401);
    expect((await none.json()).error).to.match(/requires an API key/);
    const bad = await fetch(`${probe.url}/test/required`, { headers: { 'X-API-Key': 'sl_unknown' } });
    expect(bad.status).to.equal(401);
    expect((await svc.call('/api/usage')).status).to.equal(401);
  });

  it('an inactive or suspended key answers 403 with the reason', async () => {
    const inactive = (await svc.deps.keys.create('someone@example.com')).plain;
    const r1 = await fetch(`${probe.url}/test/optional`, { headers: { 'X-API-Key': inactive } });
    expect(r1.status).to.equal(403);
    expect((await r1.json()).error).to.match(/inactive.*verification link/);
    const suspended = await svc.newKey();
    await svc.setKey(suspended, { status: 'suspended' });
    const r2 = await fetch(`${probe.url}/test/required`, { headers: { 'X-API-Key': suspended } });
    expect(r2.status).to.equal(403);
    expect((await r2.json()).error).to.match(/suspended/);
  });

  it('a keyless reply carries _notice; a keyed one never does', async () => {
    const keyless = await (await fetch(`${probe.url}/test/optional`, { headers: { 'X-Forwarded-For': 'x' } })).json();
    expect(keyless._notice).to.be.a('string').and.match(/POST \/api\/keys/);
    const key = await svc.newKey();
    const keyed = await (await fetch(`${probe.url}/test/optional`, { headers: { 'X-API-Key': key } })).json();
    expect(keyed).to.deep.equal({ ok: true });
  });

  it('keyless calls beyond the per-IP window answer 429 with Retry-After and RateLimit headers', async () => {
    const other = await startTestService();
    const p = await withProbe(other);
    try {
      const first = await fetch(`${p.url}/test/optional`);
      expect(first.status).to.equal(200);
      expect(first.headers.get('ratelimit-limit')).to.equal('2');
      expect(first.headers.get('ratelimit-remaining')).to.equal('1');
      expect(Number(first.headers.get('ratelimit-reset'))).to.be.within(1, 60);
      expect((await fetch(`${p.url}/test/optional`)).status).to.equal(200);
      const third = await fetch(`${p.url}/test/optional`);
      expect(third.status).to.equal(429);
      expect(Number(third.headers.get('retry-after'))).to.be.within(1, 60);
      expect(third.headers.get('ratelimit-remaining')).to.equal('0');
      expect((await third.json()).error).to.match(/keyless limit for perf \(2 per minute per IP\)/);
      const metrics = await (await fetch(`${other.url}/metrics`)).text();
      expect(metrics).to.match(/rate_limit_rejections_total\{limit="perf"\} 1/);
    } finally {
      await p.close();
      await other.close();
    }
  });

  it('per-minute key quota is exact across two app instances sharing one Redis', async () => {
    const prefix = `test:${crypto.randomBytes(4).toString('hex')}:`;
    const a = await startTestService({ REDIS_PREFIX: prefix });
    const b = await startTestService({ REDIS_PREFIX: prefix });
    const pa = await withProbe(a);
    const pb = await withProbe(b);
    try {
      const key = await a.newKey();
      const calls = Array.from({ length: 24 }, (_, i) =>
        fetch(`${i % 2 ? pa.url : pb.url}/test/required`, { headers: { 'X-API-Key': key } }).then((r) => r.status),
      );
      const statuses = await Promise.all(calls);
      expect(statuses.filter((s) => s === 200)).to.have.length(5);
      expect(statuses.filter((s) => s === 429)).to.have.length(19);
      const usage = await b.call('/api/usage', { headers: { 'X-API-Key': key } });
      expect(usage.body.calls_this_period).to.equal(5);
      // Calls the minute window refused do not count against the day.
      expect(usage.body.rate_limit_remaining_today).to.equal(usage.body.daily_limit - 5);
    } finally {
      await pa.close();
      await pb.close();
      await a.close();
      await b.close();
    }
  });

  it('per-day key quota: the anonymous key stops at 20 calls a day, naming the daily limit', async () => {
    const key = await svc.newKey();
    const hash = crypto.createHash('sha256').update(key).digest('hex');
    let admitted = 0;
    let last: Response | undefined;
    for (let minute = 0; minute < 5; minute++) {
      // A minute passes: the per-minute window empties, the daily count stays.
      await svc.deps.redis.del(`${svc.deps.config.REDIS_PREFIX}rl:key:minute:${hash}`);
      for (let i = 0; i < 5; i++) {
        last = await fetch(`${probe.url}/test/required`, { headers: { 'X-API-Key': key } });
        if (last.status === 200) admitted++;
      }
    }
    expect(admitted).to.equal(20);
    expect(last!.status).to.equal(429);
    expect((await last!.json()).error).to.match(/daily limit of 20/);
    const usage = await svc.call('/api/usage', { headers: { 'X-API-Key': key } });
    expect(usage.body.rate_limit_remaining_today).to.equal(0);
  });

  it('with TRUST_PROXY, keyless limits count per X-Forwarded-For client, not per proxy', async () => {
    const proxied = await startTestService({ TRUST_PROXY: 'true' });
    const p = await withProbe(proxied);
    try {
      const from = (ip: string) => fetch(`${p.url}/test/optional`, { headers: { 'X-Forwarded-For': ip } }).then((r) => r.status);
      expect([await from('203.0.113.1'), await from('203.0.113.1'), await from('203.0.113.1')]).to.deep.equal([200, 200, 429]);
      expect(await from('203.0.113.2')).to.equal(200);
    } finally {
      await p.close();
      await proxied.close();
    }
  });

  it('answers CORS preflights and GETs from any origin, without credentials', async () => {
    const pre = await fetch(`${svc.url}/api/usage`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://dashboard.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
    });
    expect(pre.status).to.equal(204);
    expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
    expect(pre.headers.get('access-control-allow-headers')).to.match(/X-API-Key/i);
    const get = await fetch(`${svc.url}/api/health`, { headers: { Origin: 'https://dashboard.example' } });
    expect(get.headers.get('access-control-allow-origin')).to.equal('*');
    expect(get.headers.get('access-control-allow-credentials')).to.equal(null);
  });

  it('keys never appear in the request log, also when sent as ?key=', async () => {
    const key = await svc.newKey();
    const lines: string[] = [];
    const original = svc.deps.log.info.bind(svc.deps.log);
    svc.deps.log.info = ((obj: unknown, msg?: string) => {
      lines.push(JSON.stringify(obj) + (msg ?? ''));
      return original(obj as object, msg);
    }) as typeof svc.deps.log.info;
    try {
      await svc.call(`/api/usage?key=${key}`);
    } finally {
      svc.deps.log.info = original;
    }
    expect(lines.join('\n')).to.include('/api/usage');
    expect(lines.join('\n')).not.to.include(key);
  });
});
