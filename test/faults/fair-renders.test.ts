import { expect } from 'chai';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { keyMaker } from './support/keys.js';
import { baseEnv, sharedRedisUrl as redisUrl, spawnService, stopService, type ServiceProcess } from './support/service-process.js';
import { until } from '../support/wait.js';

const endless = '<!doctype html><title>hostile</title><script>while (true) {}</script>';

describe('faults: fair renders under hostile pages', function () {
  this.timeout(180_000);
  let site: FixtureServer;
  let api: ServiceProcess;
  let keys: Awaited<ReturnType<typeof keyMaker>>;
  /** Hostile renders answered so far, and how many had been when the calm page was last asked for. */
  let attacksAnswered = 0;
  let answeredWhenCalmAsked = -1;

  before(async () => {
    site = await serve({
      '/': (_req, res) => {
        answeredWhenCalmAsked = attacksAnswered;
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>calm</title><body style="background:#09c"><h1>calm page</h1></body>');
      },
    });
    const env = baseEnv(redisUrl(), { BROWSER_CONCURRENCY: '4', RENDER_SCRIPT_BUDGET_MS: '2000' });
    api = await spawnService('api', env);
    keys = await keyMaker(redisUrl(), env.REDIS_PREFIX);
  });
  after(async () => {
    await keys.close();
    await stopService(api);
    await site.close();
  });

  const screenshot = async (key: string, extra = '') => {
    const res = await fetch(`${api.url}/api/screenshot?url=${encodeURIComponent(`${site.url}/`)}&full_page=false${extra}`, { headers: { 'X-API-Key': key } });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, type: res.headers.get('content-type'), body };
  };
  const pagesOpen = async () => {
    const text = await (await fetch(`${api.url}/metrics`)).text();
    return Number(/^browser_pages_open (\d+)/m.exec(text)?.[1] ?? 0);
  };

  it('four endless-loop renders of one key stop at the script budget (400) and never hold up another key\'s screenshot', async () => {
    const hostile = await keys.newKey('business');
    const calm = await keys.newKey('business');
    const baseline = await screenshot(calm.key);
    expect(baseline.status).to.equal(200);

    const attacks = Array.from({ length: 4 }, () =>
      fetch(`${api.url}/api/html2image`, { method: 'POST', headers: { 'content-type': 'text/html', 'X-API-Key': hostile.key }, body: endless }).then(async (r) => {
        attacksAnswered++;
        return { status: r.status, body: (await r.json()) as { error: string } };
      }),
    );
    await until('the hostile pages to run', async () => ((await pagesOpen()) >= 3 ? true : undefined));

    answeredWhenCalmAsked = -1;
    const during = await screenshot(calm.key);
    expect(during.status).to.equal(200);
    expect(during.type).to.equal('image/png');
    // The order, not the clock: the calm render got its page while every hostile render still
    // held its slot. Without the per-key share the four would hold every slot, and the calm
    // render would wait for one of them to end at the script budget.
    expect(answeredWhenCalmAsked, 'hostile renders answered before the calm page was asked for').to.equal(0);

    for (const a of await Promise.all(attacks)) {
      expect(a.status).to.equal(400);
      expect(a.body.error).to.match(/script ran for more than 2000 ms.*stopped/);
    }
  });

  it('GET /api/screenshot, with js that never returns, answers 400 naming the budget, and the pool is free again', async () => {
    const { key } = await keys.newKey('business');
    const r = await screenshot(key, `&js=${encodeURIComponent('while (true) {}')}`);
    expect(r.status).to.equal(400);
    expect(JSON.parse(r.body.toString()).error).to.match(/script ran for more than 2000 ms/);
    await until('the page to close', async () => ((await pagesOpen()) === 0 ? true : undefined), 10_000);
    expect((await screenshot(key)).status).to.equal(200);
  });
});
