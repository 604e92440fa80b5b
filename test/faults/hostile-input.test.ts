import { expect } from 'chai';
import { serve, redirect, type FixtureServer } from '../links/fixture-site.js';
import { startTestService, type TestService } from '../support/service.js';

describe('faults: hostile input answers 4xx, never 500', function () {
  this.timeout(120_000);
  let svc: TestService;
  let key: string;
  let site: FixtureServer;

  before(async () => {
    site = await serve({
      '/': '<title>fine</title><body>fine</body>',
      // Navigates again and again, also while the screenshot is being taken.
      '/restless': `<!doctype html><body style="height:4000px;background:linear-gradient(#f00,#00f)">
        <script>setTimeout(() => { location.href = '/restless?' + Date.now(); }, 40);</script></body>`,
    });
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc.close();
    await site.close();
  });

  it('POST /api/charts/render, with options nested 5000 deep, answers 400 naming the depth limit', async () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const body = `{"type":"bar","data":{"labels":["a"],"datasets":[{"data":[1]}]},"options":${deep}}`;
    const r = await svc.call('/api/charts/render', { method: 'POST', headers: { 'X-API-Key': key, 'content-type': 'application/json' }, body });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/nested deeper than 64 levels/);
  });

  it('POST /api/charts/render, with a body over 1 MiB, answers 413 naming the limit', async () => {
    const body = JSON.stringify({ type: 'bar', data: { labels: [], datasets: [{ data: Array(600_000).fill(1) }] } });
    const r = await svc.call('/api/charts/render', { method: 'POST', headers: { 'X-API-Key': key, 'content-type': 'application/json' }, body });
    expect(r.status).to.equal(413);
    expect(r.body.error).to.match(/larger than the limit of 1048576 bytes/);
  });

  it('POST /api/screenshot/queue, with a webhook_url whose host does not resolve, answers 400 at submission', async () => {
    const r = await svc.call('/api/screenshot/queue', { method: 'POST', headers: { 'X-API-Key': key }, json: { url: `${site.url}/`, webhook_url: 'https://receiver.nonexistent.invalid/hook' } });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/^webhook_url: the host receiver\.nonexistent\.invalid does not resolve/);
  });

  it('GET /api/screenshot, of a page that keeps navigating while captured, answers an image or a clear 502', async () => {
    for (const fullPage of ['true', 'false']) {
      const r = await svc.call(`/api/screenshot?url=${encodeURIComponent(`${site.url}/restless`)}&full_page=${fullPage}`, { headers: { 'X-API-Key': key } });
      expect([200, 502], r.text.slice(0, 200)).to.include(r.status);
      if (r.status === 502) expect(r.body.error).to.match(/kept navigating/);
      else expect(r.headers.get('content-type')).to.equal('image/png');
    }
  });
});

describe('faults: refusals answer the same 400 in fetch and browser mode, naming no resolved address', function () {
  this.timeout(120_000);
  let strict: TestService;
  let key: string;
  let privateSite: FixtureServer;
  let publicSite: FixtureServer;

  before(async () => {
    privateSite = await serve({ '/': '<title>internal admin</title><body>secret</body>' });
    const internal = `http://localhost:${new URL(privateSite.url).port}/`;
    publicSite = await serve({ '/': '<title>public</title>', '/away': redirect(internal) }, '127.0.0.2');
    strict = await startTestService({ ALLOW_PRIVATE_TARGETS: '127.0.0.2' });
    key = await strict.newKey('business');
  });
  after(async () => {
    await strict.close();
    await privateSite.close();
    await publicSite.close();
  });

  const get = (path: string) => strict.call(path, { headers: { 'X-API-Key': key } });
  const refusedTargets = () => ({
    'a loopback name': `http://localhost:${new URL(privateSite.url).port}/`,
    'a public page redirecting to it': `${publicSite.url}/away`,
  });

  for (const [what, url] of Object.entries({ direct: 'a loopback name', redirected: 'a public page redirecting to it' })) {
    it(`render=true analyses and screenshots of ${url} answer 400 like fetch mode, and the private server sees nothing (${what})`, async () => {
      const target = encodeURIComponent(refusedTargets()[url as keyof ReturnType<typeof refusedTargets>]);
      const fetchMode = await get(`/api/seo?url=${target}`);
      expect(fetchMode.status).to.equal(400);
      for (const path of [
        `/api/seo?url=${target}&render=true`,
        `/api/techstack?url=${target}&render=true`,
        `/api/audit?url=${target}&seo=true`,
        `/api/screenshot?url=${target}`,
        `/api/deadlinks?url=${target}&render=true&max_pages=2&max_duration=10`,
      ]) {
        const r = await get(path);
        expect(r.status, `${path}: ${r.text.slice(0, 200)}`).to.equal(400);
        expect(r.body.error, path).to.match(/localhost resolves to a loopback address, which is not an allowed target/);
        expect(r.body.error, path).to.not.match(/127\.0\.0\.1|::1/);
      }
      expect(privateSite.hits).to.deep.equal([]);
    });
  }
});
