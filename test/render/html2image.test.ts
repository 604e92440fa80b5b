import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { decode, near, startFixtureSite, type FixtureSite } from './fixture-site.js';

const post = (svc: TestService, key: string, html: string, query = '') =>
  svc.call(`/api/html2image${query}`, { method: 'POST', headers: { 'content-type': 'text/html', 'X-API-Key': key }, body: html });

const redPage = '<html><body style="margin:0;background:#ff0000"><div id="x">hi</div></body></html>';

describe('POST /api/html2image', function () {
  this.timeout(60_000);
  let svc: TestService;
  let site: FixtureSite;
  let key: string;

  before(async () => {
    svc = await startTestService();
    site = await startFixtureSite();
    key = await svc.newKey('business');
  });
  after(async () => {
    await site?.close();
    await svc?.close();
  });

  it('defaults to an 800x600 PNG of the HTML', async () => {
    const r = await post(svc, key, redPage);
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('image/png');
    const img = await decode(r.buffer);
    expect([img.width, img.height]).to.deep.equal([800, 600]);
    expect(near(img.pixel(400, 300), [255, 0, 0])).to.equal(true);
  });

  it('width, height, scale and format=jpeg/webp give that size and encoding', async () => {
    const jpeg = await post(svc, key, redPage, '?width=300&height=200&scale=2&format=jpeg&quality=90');
    expect(jpeg.headers.get('content-type')).to.equal('image/jpeg');
    expect(jpeg.buffer.subarray(0, 3).toString('hex')).to.equal('ffd8ff');
    expect([(await decode(jpeg.buffer)).width, (await decode(jpeg.buffer)).height]).to.deep.equal([600, 400]);
    const webp = await post(svc, key, redPage, '?width=320&height=100&format=webp');
    expect(webp.buffer.subarray(8, 12).toString()).to.equal('WEBP');
    const img = await decode(webp.buffer);
    expect([img.width, img.height]).to.deep.equal([320, 100]);
  });

  it('dark_mode applies prefers-color-scheme: dark', async () => {
    const html = '<style>body{margin:0;background:#fff}@media (prefers-color-scheme: dark){body{background:#111}}</style><body>x</body>';
    const light = await decode((await post(svc, key, html, '?width=100&height=100')).buffer);
    const dark = await decode((await post(svc, key, html, '?width=100&height=100&dark_mode=true')).buffer);
    expect(near(light.pixel(50, 50), [255, 255, 255])).to.equal(true);
    expect(near(dark.pixel(50, 50), [17, 17, 17])).to.equal(true);
  });

  it('waits for images from allowed URLs before capture', async () => {
    const html = `<body style="margin:0;background:#fff"><img src="${site.url}/green.png" style="display:block;width:200px;height:100px"></body>`;
    const img = await decode((await post(svc, key, html, '?width=200&height=100')).buffer);
    expect(near(img.pixel(100, 50), [0, 255, 0])).to.equal(true);
  });

  it('CJK text renders as glyphs, not empty boxes', async () => {
    const html = `<body style="margin:0;background:#fff;font-size:64px;line-height:1"><span id="t">漢字</span></body>`;
    const img = await decode((await post(svc, key, html, '?width=200&height=80')).buffer);
    let dark = 0;
    for (let y = 0; y < 64; y++) for (let x = 0; x < 128; x++) if (img.pixel(x, y)[0] < 128) dark++;
    // Two CJK glyphs cover far more ink than two tofu outlines would.
    expect(dark).to.be.greaterThan(1500);
  });

  it('a body over 50 KB gives 413; a non-HTML content type 415; an empty body 400', async () => {
    const big = await post(svc, key, `<p>${'x'.repeat(51 * 1024)}</p>`);
    expect(big.status).to.equal(413);
    const json = await svc.call('/api/html2image', { method: 'POST', json: { html: '<p>x</p>' }, headers: { 'X-API-Key': key } });
    expect(json.status).to.equal(415);
    const empty = await post(svc, key, '');
    expect(empty.status).to.equal(400);
  });

  it('width above 1920 or height above 1080 gives 400 naming the parameter', async () => {
    expect((await post(svc, key, redPage, '?width=1921')).body.error).to.match(/width must be an integer between 1 and 1920/);
    expect((await post(svc, key, redPage, '?height=1081')).body.error).to.match(/height must be an integer between 1 and 1080/);
  });

  describe('with only 127.0.0.2 allowed', () => {
    let strict: TestService;
    let privateSite: FixtureSite;
    let strictKey: string;
    before(async () => {
      strict = await startTestService({ ALLOW_PRIVATE_TARGETS: '127.0.0.2' });
      privateSite = await startFixtureSite('127.0.0.1');
      strictKey = await strict.newKey();
    });
    after(async () => {
      await privateSite?.close();
      await strict?.close();
    });

    it('images, frames and fetches to 127.0.0.1 or file: never load', async () => {
      const priv = privateSite.url;
      const html = `<body style="margin:0;background:#fff">
        <img src="${priv}/green.png" style="display:block;width:100px;height:100px">
        <img src="file:///usr/share/pixmaps/debian-logo.png"><iframe src="file:///etc/passwd"></iframe><iframe src="${priv}/"></iframe>
        <link rel="stylesheet" href="${priv}/x.css"><script>fetch('${priv}/fetch').catch(() => {})</script></body>`;
      const r = await post(strict, strictKey, html, '?width=100&height=100');
      expect(r.status, r.text).to.equal(200);
      expect(privateSite.hits).to.deep.equal([]);
      expect(near((await decode(r.buffer)).pixel(50, 50), [0, 255, 0])).to.equal(false);
    });
  });
});
