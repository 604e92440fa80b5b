import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { decode, near, startFixtureSite, type FixtureSite } from './fixture-site.js';

const adPaths = ['/pagead/js/adsbygoogle.js', '/tag/js/gpt.js', '/ttj?id=1', '/c/hotjar-1.js'];

describe('GET /api/screenshot, block_ads and target safety', function () {
  this.timeout(120_000);
  let svc: TestService;
  let site: FixtureSite;
  let key: string;

  const shot = (params: Record<string, string | number | boolean>) =>
    svc.call(`/api/screenshot?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, {
      headers: { 'X-API-Key': key },
    });

  before(async () => {
    svc = await startTestService({ FETCH_TIMEOUT_MS: '2000' });
    site = await startFixtureSite();
    key = await svc.newKey('business');
  });
  after(async () => {
    await site?.close();
    await svc?.close();
  });

  it('without block_ads, the ad/tracker scripts are requested and the ad slot and banner are painted (control)', async () => {
    site.hits.length = 0;
    const r = await shot({ url: `http://news.publisher.test:${site.port}/ads`, full_page: false, width: 800, height: 600 });
    expect(r.status, r.text).to.equal(200);
    expect(site.hits.map((h) => h.path)).to.include.members(adPaths);
    const img = await decode(r.buffer);
    expect(near(img.pixel(150, 125), [0, 255, 0]), 'ad slot').to.equal(true);
    expect(near(img.pixel(400, 550), [255, 0, 0]), 'cookie banner').to.equal(true);
  });

  it('with block_ads, no ad/tracker request reaches the server and the ad slot and cookie banner are gone', async () => {
    site.hits.length = 0;
    const r = await shot({ url: `http://news.publisher.test:${site.port}/ads`, full_page: false, width: 800, height: 600, block_ads: true });
    expect(r.status, r.text).to.equal(200);
    const paths = site.hits.map((h) => h.path);
    expect(paths).to.include('/ads');
    for (const p of adPaths) expect(paths).to.not.include(p);
    const img = await decode(r.buffer);
    expect(near(img.pixel(150, 125), [255, 255, 255]), 'ad slot').to.equal(true);
    expect(near(img.pixel(400, 550), [255, 255, 255]), 'cookie banner').to.equal(true);
  });

  it('a target that never answers gives 504', async () => {
    const r = await shot({ url: `${site.url}/hang` });
    expect(r.status).to.equal(504);
    expect(r.body.error).to.equal(`${new URL(site.url).host} did not answer in time: timed out (no response within 2000 ms)`);
    expect(svc.deps.browser.stats().open).to.equal(0);
  });

  it('/metrics shows the pool gauges', async () => {
    const r = await svc.call('/metrics');
    expect(r.text).to.match(/^browser_pool_capacity \d+$/m);
    expect(r.text).to.match(/^browser_pages_open 0$/m);
    expect(r.text).to.match(/^browser_queue_length 0$/m);
  });

  describe('with only 127.0.0.2 allowed as a target', () => {
    let strict: TestService;
    let publicSite: FixtureSite;
    let privateSite: FixtureSite;
    let strictKey: string;

    before(async () => {
      strict = await startTestService({ ALLOW_PRIVATE_TARGETS: '127.0.0.2' });
      privateSite = await startFixtureSite('127.0.0.1');
      const priv = privateSite.url;
      publicSite = await startFixtureSite('127.0.0.2', {
        '/embeds': `<!doctype html><body style="margin:0;background:#fff">
          <img src="${priv}/green.png" style="display:block;width:200px;height:200px">
          <iframe src="${priv}/"></iframe><iframe src="file:///etc/passwd"></iframe>
          <img src="http://[::ffff:127.0.0.1]:${privateSite.port}/v6.png"><img src="http://0x7f000001:${privateSite.port}/hex.png">
          <link rel="stylesheet" href="${priv}/style.css">
          <script>fetch('${priv}/fetch').catch(() => {}); navigator.sendBeacon && navigator.sendBeacon('${priv}/beacon');
            try { new WebSocket('${priv.replace('http', 'ws')}/ws'); } catch (e) {}</script></body>`,
        '/redirect': '',
      });
      strictKey = await strict.newKey('business');
    });
    after(async () => {
      await publicSite?.close();
      await privateSite?.close();
      await strict?.close();
    });

    it('a public page embedding 127.0.0.1 and file: resources renders, and none of them reaches the private server', async () => {
      const r = await strict.call(`/api/screenshot?url=${encodeURIComponent(`${publicSite.url}/embeds`)}&full_page=false`, {
        headers: { 'X-API-Key': strictKey },
      });
      expect(r.status, r.text).to.equal(200);
      expect(publicSite.hits.map((h) => h.path)).to.include('/embeds');
      expect(privateSite.hits).to.deep.equal([]);
      // The image from the private address is not painted.
      expect(near((await decode(r.buffer)).pixel(100, 100), [0, 255, 0])).to.equal(false);
    });

    it('url on 127.0.0.1 gives 400 and is never requested', async () => {
      const r = await strict.call(`/api/screenshot?url=${encodeURIComponent(`${privateSite.url}/`)}`, { headers: { 'X-API-Key': strictKey } });
      expect(r.status).to.equal(400);
      expect(r.body.error).to.match(/not an allowed target/);
      expect(privateSite.hits).to.deep.equal([]);
    });
  });
});
