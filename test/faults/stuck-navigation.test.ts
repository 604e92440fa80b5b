import { expect } from 'chai';
import type http from 'node:http';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { until } from '../support/wait.js';
import { keyMaker } from './support/keys.js';
import { startOwnRedis, type OwnRedis } from './support/redis-server.js';
import { baseEnv, spawnService, stopService, type ServiceProcess } from './support/service-process.js';

const page = '<!doctype html><title>slow</title><body style="background:#3a6;margin:0"><h1>late but fine</h1></body>';

/**
 * Pages stuck in navigation (a target that never answers, a slow first byte, a render while
 * Redis restarts) against a script budget far shorter than the wait: the budget counts the
 * page's script, never the network, so these are target timeouts or successes, not 400s.
 */
describe('faults: renders stuck in navigation are not script-budget failures', function () {
  this.timeout(180_000);
  let redis: OwnRedis;
  let service: ServiceProcess;
  let key: string;
  let hanging: FixtureServer;
  let slow: FixtureServer;
  let receiver: FixtureServer;
  /** Slow-page requests waiting for the test to let them through. */
  const held: Array<() => void> = [];
  let holdSlow = false;
  const hooks: Array<{ body: string }> = [];

  before(async () => {
    redis = await startOwnRedis({ persist: true });
    hanging = await startFixtureServer(() => undefined); // accepts, reads the request, never answers
    slow = await startFixtureServer((req, res) => {
      const answer = () => res.writeHead(200, { 'content-type': 'text/html' }).end(req.url?.includes('loop') ? `${page}<script>while (true) {}</script>` : page);
      if (holdSlow) held.push(answer);
      else setTimeout(answer, 2_500); // a slow first byte: well past the 1 s script budget
    });
    receiver = await startFixtureServer((req: http.IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push({ body });
        res.writeHead(204).end();
      });
    });
    const env = baseEnv(redis.url, { RENDER_SCRIPT_BUDGET_MS: '1000', FETCH_TIMEOUT_MS: '4000', BROWSER_CONCURRENCY: '4' });
    service = await spawnService('serve', env);
    const keys = await keyMaker(redis.url, env.REDIS_PREFIX);
    key = (await keys.newKey('business')).key;
    await keys.close();
  });
  after(async () => {
    await stopService(service);
    await redis.close();
    await Promise.all([hanging.close(), slow.close(), receiver.close()]);
  });

  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(service.url + path, { ...init, headers: { 'X-API-Key': key, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
    const buffer = Buffer.from(await res.arrayBuffer());
    const json = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(buffer.toString()) : undefined;
    return { status: res.status, type: res.headers.get('content-type'), buffer, json };
  };
  const shot = (url: string) => call(`/api/screenshot?full_page=false&url=${encodeURIComponent(url)}`);
  const host = () => new URL(hanging.url).host;
  const jobStatus = async (id: string) => (await call(`/api/screenshot/status/${id}`)).json as { status: string; attempts: number; error: string | null; webhook: { state: string } | null };

  it('GET /api/screenshot of a server that never answers: 504 naming the target and the time waited', async () => {
    const r = await shot(`${hanging.url}/`);
    expect(r.status).to.equal(504);
    expect(r.json.error).to.equal(`${host()} did not answer in time: timed out (no response within 4000 ms)`);
  });

  it('GET /api/screenshot of a page whose first byte comes after 2.5 s: the image, as for any page', async () => {
    const r = await shot(`${slow.url}/`);
    expect(r.status, r.json?.error).to.equal(200);
    expect(r.type).to.equal('image/png');
  });

  it('GET /api/screenshot of a slow page that then loops forever: still stopped at the script budget (400)', async () => {
    const r = await shot(`${slow.url}/loop`);
    expect(r.status).to.equal(400);
    expect(r.json.error).to.match(/script ran for more than 1000 ms/);
  });

  it('POST /api/screenshot/batch: the hanging item carries the target timeout, the slow one its image', async () => {
    const r = await call('/api/screenshot/batch', { method: 'POST', body: JSON.stringify({ urls: [`${hanging.url}/`, `${slow.url}/`] }) });
    expect(r.status).to.equal(200);
    const [stuck, late] = r.json.results as Array<{ error: string | null; image: string | null }>;
    expect(stuck.error).to.equal(`${host()} did not answer in time: timed out (no response within 4000 ms)`);
    expect(late.error).to.equal(null);
    expect(late.image).to.be.a('string');
  });

  it('a queued screenshot of a server that never answers is retried as a target timeout, and its failure webhook says so', async () => {
    hooks.length = 0;
    const queued = await call('/api/screenshot/queue', { method: 'POST', body: JSON.stringify({ url: `${hanging.url}/`, format: 'png', webhook_url: `${receiver.url}/hook` }) });
    expect(queued.status).to.equal(202);
    const id = (queued.json as { job_id: string }).job_id;
    const done = await until('the job to fail after its retries', async () => {
      const s = await jobStatus(id);
      return s.status === 'failed' && s.webhook?.state === 'delivered' ? s : undefined;
    }, 90_000, 250);
    expect(done.attempts).to.equal(3);
    expect(done.error).to.equal(`${host()} did not answer in time: timed out (no response within 4000 ms)`);
    const body = JSON.parse(hooks[0].body) as { status: string; code: string; error: string };
    expect(body).to.include({ status: 'failed', code: 'target_timeout', error: done.error });
  });

  it('screenshots queued just before a Redis restart, rendering while it restarts, all complete', async () => {
    holdSlow = true;
    const ids: string[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        const queued = await call('/api/screenshot/queue', { method: 'POST', body: JSON.stringify({ url: `${slow.url}/?job=${i}`, format: 'png' }) });
        expect(queued.status).to.equal(202);
        ids.push((queued.json as { job_id: string }).job_id);
      }
      // Every render is in its navigation, waiting for the page, when Redis goes away and comes back.
      await until('the four renders to ask for their page', () => (held.length >= 4 ? true : undefined), 60_000);
      await redis.stop();
      await redis.start();
    } finally {
      holdSlow = false;
      for (const answer of held.splice(0)) answer();
    }
    for (const id of ids) {
      const s = await until(`job ${id} to finish`, async () => {
        const st = await call(`/api/screenshot/status/${id}`).catch(() => undefined);
        const status = st?.json as { status: string; error: string | null } | undefined;
        return status && ['completed', 'failed'].includes(status.status) ? status : undefined;
      }, 90_000, 250);
      expect(s, `job ${id}: ${s.error}`).to.include({ status: 'completed', error: null });
    }
  });
});
