import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { decode, startFixtureSite, type FixtureSite } from './fixture-site.js';

describe('POST /api/screenshot/batch', function () {
  this.timeout(60_000);
  let svc: TestService;
  let site: FixtureSite;

  const batch = (key: string | undefined, json: unknown) =>
    svc.call('/api/screenshot/batch', { method: 'POST', json, headers: key ? { 'X-API-Key': key } : {} });

  before(async () => {
    svc = await startTestService({ FETCH_TIMEOUT_MS: '2000' });
    site = await startFixtureSite();
  });
  after(async () => {
    await site?.close();
    await svc?.close();
  });

  it('with good and failing URLs, renders the good ones and gives the others an error', async () => {
    const key = await svc.newKey();
    const r = await batch(key, {
      urls: [`${site.url}/`, 'http://127.0.0.1:1/', `${site.url}/box`, `${site.url}/hang`],
      width: 400,
      height: 300,
      format: 'jpeg',
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ total: 4, successful: 2, failed: 2 });
    const [ok, refused, box, hang] = r.body.results;
    expect(ok).to.include({ url: `${site.url}/`, format: 'jpeg', error: null, target_status: 200 });
    const img = await decode(Buffer.from(ok.image, 'base64'));
    expect([img.width, img.height]).to.deep.equal([400, 300]);
    expect(box.error).to.equal(null);
    expect(refused.image).to.equal(null);
    expect(refused.error).to.match(/^127\.0\.0\.1:1 (is unreachable|could not be loaded)/);
    expect(hang.error).to.match(/did not answer/);
    expect(r.body).to.not.have.property('_notice');
  });

  it('full_page=true captures the whole page', async () => {
    const key = await svc.newKey();
    const r = await batch(key, { urls: [`${site.url}/tall`], width: 800, height: 600, full_page: true });
    const img = await decode(Buffer.from(r.body.results[0].image, 'base64'));
    expect([img.width, img.height]).to.deep.equal([800, 3200]);
  });

  it('without a key gives 401', async () => {
    const r = await batch(undefined, { urls: [`${site.url}/`] });
    expect(r.status).to.equal(401);
  });

  it('validates urls (1 to 10), width 320-1920, height 240-1080 and delay', async () => {
    const key = await svc.newKey('business');
    const cases: Array<[unknown, RegExp]> = [
      [{ urls: [] }, /urls must be an array of 1 to 10 items, got 0 items/],
      [{ urls: Array(11).fill(site.url) }, /urls must be an array of 1 to 10 items, got 11 items/],
      [{ urls: [site.url], width: 319 }, /width must be an integer between 320 and 1920/],
      [{ urls: [site.url], height: 1081 }, /height must be an integer between 240 and 1080/],
      [{ urls: [site.url], delay: 10_001 }, /delay must be an integer between 0 and 10000/],
      [{ urls: [site.url], format: 'pdf' }, /format must be one of/],
      [{ urls: ['ftp://x'] }, /urls\[0\] must use the http or https scheme/],
    ];
    for (const [body, message] of cases) {
      const r = await batch(key, body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.error).to.match(message);
    }
  });

  it('a third batch within a minute gives 429 with Retry-After', async () => {
    const key = await svc.newKey('business');
    for (let i = 0; i < 2; i++) expect((await batch(key, { urls: [`${site.url}/`], width: 320, height: 240 })).status).to.equal(200);
    const third = await batch(key, { urls: [`${site.url}/`] });
    expect(third.status).to.equal(429);
    expect(third.headers.get('retry-after')).to.match(/^\d+$/);
  });
});
