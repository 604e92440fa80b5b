import { expect } from 'chai';
import { PDFDocument } from 'pdf-lib';
import { viewportPresets, viewportNames } from '../../server/render/viewports.js';
import { startTestService, type TestService } from '../support/service.js';
import { decode, near, startFixtureSite, type FixtureSite } from './fixture-site.js';

describe('GET /api/screenshot', function () {
  this.timeout(120_000);
  let svc: TestService;
  let site: FixtureSite;
  let keys: string[] = [];
  let calls = 0;

  /** Calls with a business key, switching keys before the per-minute quota (60) runs out. */
  const shot = async (params: Record<string, string | number | boolean>) => {
    const key = keys[Math.floor(calls++ / 50)];
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    return svc.call(`/api/screenshot?${qs}`, { headers: { 'X-API-Key': key } });
  };

  before(async () => {
    svc = await startTestService({ SCREENSHOT_WAIT_FOR_MS: '2000' });
    site = await startFixtureSite();
    keys = [];
    for (let i = 0; i < 3; i++) {
      const k = await svc.newKey('business');
      keys.push(k);
    }
  });
  after(async () => {
    await site?.close();
    await svc?.close();
  });

  describe('viewport presets', () => {
    for (const name of viewportNames) {
      it(`viewport=${name}, viewport only at scale 1, gives the preset's size`, async () => {
        const r = await shot({ url: `${site.url}/`, viewport: name, full_page: false, scale: 1 });
        expect(r.status, r.text).to.equal(200);
        const img = await decode(r.buffer);
        const p = viewportPresets[name];
        expect([img.width, img.height]).to.deep.equal([p.width, p.height]);
      });
    }

    it('viewport=iphone_14 with scale=3 renders a mobile, touch viewport at the device pixel ratio', async () => {
      const r = await shot({
        url: `${site.url}/`,
        viewport: 'iphone_14',
        full_page: false,
        scale: 3,
        js: `if (!matchMedia('(pointer: coarse)').matches || !/Mobile/.test(navigator.userAgent) || devicePixelRatio !== 3) throw new Error('not a phone: ' + navigator.userAgent);`,
      });
      expect(r.status, r.text).to.equal(200);
      const img = await decode(r.buffer);
      expect([img.width, img.height]).to.deep.equal([390 * 3, 844 * 3]);
    });

    it('viewport=iphone_14 without scale follows the contract default of 1', async () => {
      const r = await shot({ url: `${site.url}/`, viewport: 'iphone_14', full_page: false });
      expect(r.status, r.text).to.equal(200);
      const img = await decode(r.buffer);
      expect([img.width, img.height]).to.deep.equal([390, 844]);
    });

    it('viewport=tablet_landscape swaps the tablet size', async () => {
      const r = await shot({ url: `${site.url}/`, viewport: 'tablet_landscape', full_page: false, scale: 1 });
      const img = await decode(r.buffer);
      expect([img.width, img.height]).to.deep.equal([1024, 768]);
    });
  });

  it('response_type=json, answers the base64 image with its format and size, as a queued job result', async () => {
    const r = await shot({ url: `${site.url}/`, width: 640, height: 360, full_page: false, response_type: 'json' });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ url: `${site.url}/`, format: 'png', width: 640, height: 360, target_status: 200 });
    const img = await decode(Buffer.from(r.body.image, 'base64'));
    expect([img.width, img.height]).to.deep.equal([640, 360]);
  });

  it('width and height with scale=2 give twice the size', async () => {
    const r = await shot({ url: `${site.url}/`, width: 500, height: 300, full_page: false, scale: 2 });
    const img = await decode(r.buffer);
    expect([img.width, img.height]).to.deep.equal([1000, 600]);
    expect(near(img.pixel(10, 500), [255, 0, 0])).to.equal(true);
  });

  it('full_page on a 3000-px page captures all of it, lazy image at the bottom loaded', async () => {
    const r = await shot({ url: `${site.url}/tall`, width: 800, height: 600 });
    expect(r.status, r.text).to.equal(200);
    const img = await decode(r.buffer);
    expect(img.width).to.equal(800);
    expect(img.height).to.equal(3200);
    expect(near(img.pixel(400, 3100), [0, 255, 0])).to.equal(true);
    expect(near(img.pixel(400, 100), [255, 255, 255])).to.equal(true);
  });

  it('clip with full_page=false crops exactly that region', async () => {
    const r = await shot({ url: `${site.url}/grid`, full_page: false, clip: '50,0,100,50' });
    const img = await decode(r.buffer);
    expect([img.width, img.height]).to.deep.equal([100, 50]);
    expect(near(img.pixel(10, 10), [255, 0, 0])).to.equal(true);
    expect(near(img.pixel(90, 10), [0, 0, 255])).to.equal(true);
  });

  it('clip alone on a 3000-px page is that region, not the whole page (full_page defaults to false with it)', async () => {
    const r = await shot({ url: `${site.url}/tall`, width: 800, height: 600, clip: '0,2900,600,200' });
    expect(r.status, r.text).to.equal(200);
    const img = await decode(r.buffer);
    expect([img.width, img.height]).to.deep.equal([600, 200]);
    expect(near(img.pixel(300, 150), [0, 255, 0]), 'the region below the fold, where the green image is').to.equal(true);
  });

  it('a region next to what excludes it is a 400 naming both: clip with full_page=true, clip with selector, selector with format=pdf', async () => {
    const cases: Array<[Record<string, string | boolean>, RegExp]> = [
      [{ clip: '0,0,100,50', full_page: true }, /^clip chooses a region, full_page=true the whole page; drop one of them/],
      [{ selector: '#box', full_page: 'yes' }, /^selector chooses a region, full_page=true the whole page/],
      [{ clip: '0,0,100,50', selector: '#box' }, /^clip and selector both choose the region to capture; give one of them/],
      [{ selector: '#box', format: 'pdf' }, /^selector applies to images; format=pdf prints the whole page/],
    ];
    for (const [params, message] of cases) {
      const r = await shot({ url: `${site.url}/box`, ...params });
      expect(r.status, JSON.stringify(params)).to.equal(400);
      expect(r.body.error, JSON.stringify(params)).to.match(message);
    }
  });

  it('selector captures the element box', async () => {
    const r = await shot({ url: `${site.url}/box`, selector: '#box', scale: 2 });
    const img = await decode(r.buffer);
    expect([img.width, img.height]).to.deep.equal([400, 200]);
    expect(near(img.pixel(200, 100), [0, 0, 255])).to.equal(true);
  });

  it('selector matching nothing gives 400 naming the selector', async () => {
    const r = await shot({ url: `${site.url}/box`, selector: '#nope' });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/selector.*#nope/);
  });

  it('format=jpeg and webp give those encodings at the requested size; quality changes the JPEG size', async () => {
    const jpegLow = await shot({ url: `${site.url}/noise`, format: 'jpeg', quality: 10, full_page: false, width: 600, height: 400 });
    const jpegHigh = await shot({ url: `${site.url}/noise`, format: 'jpeg', quality: 95, full_page: false, width: 600, height: 400 });
    const webp = await shot({ url: `${site.url}/noise`, format: 'webp', full_page: false, width: 600, height: 400 });
    const png = await shot({ url: `${site.url}/noise`, format: 'png', full_page: false, width: 600, height: 400 });
    expect(jpegLow.headers.get('content-type')).to.equal('image/jpeg');
    expect(jpegLow.buffer.subarray(0, 3).toString('hex')).to.equal('ffd8ff');
    expect(webp.headers.get('content-type')).to.equal('image/webp');
    expect(webp.buffer.subarray(0, 4).toString()).to.equal('RIFF');
    expect(webp.buffer.subarray(8, 12).toString()).to.equal('WEBP');
    expect(png.buffer.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
    expect(jpegHigh.buffer.length).to.be.greaterThan(jpegLow.buffer.length * 1.5);
    for (const r of [jpegLow, webp, png]) {
      const img = await decode(r.buffer);
      expect([img.width, img.height]).to.deep.equal([600, 400]);
    }
  });

  it('format=pdf gives a PDF that parses with at least one page', async () => {
    const r = await shot({ url: `${site.url}/tall`, format: 'pdf' });
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('application/pdf');
    expect(r.buffer.subarray(0, 5).toString()).to.equal('%PDF-');
    const pdf = await PDFDocument.load(r.buffer);
    expect(pdf.getPageCount()).to.be.at.least(1);
  });

  it('dark_mode switches prefers-color-scheme', async () => {
    const light = await decode((await shot({ url: `${site.url}/dark`, full_page: false })).buffer);
    const dark = await decode((await shot({ url: `${site.url}/dark`, full_page: false, dark_mode: true })).buffer);
    expect(near(light.pixel(600, 600), [255, 255, 255])).to.equal(true);
    expect(near(dark.pixel(600, 600), [17, 17, 17])).to.equal(true);
  });

  it('js runs before capture and changes the pixels', async () => {
    const r = await shot({ url: `${site.url}/`, full_page: false, js: "document.body.style.background = '#0000ff';" });
    expect(near((await decode(r.buffer)).pixel(600, 600), [0, 0, 255])).to.equal(true);
  });

  it('js that throws gives 400 with the script error', async () => {
    const r = await shot({ url: `${site.url}/`, js: "throw new Error('boom here')" });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/js failed: .*boom here/);
  });

  it('js longer than 2000 characters gives 400', async () => {
    const r = await shot({ url: `${site.url}/`, js: `//${'x'.repeat(2000)}` });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/js must be a string of at most 2000 characters/);
  });

  it('wait_for waits for a late element', async () => {
    const r = await shot({ url: `${site.url}/late`, wait_for: '#late', selector: '#late' });
    expect(r.status, r.text).to.equal(200);
    const img = await decode(r.buffer);
    expect([img.width, img.height]).to.deep.equal([100, 100]);
  });

  it('wait_for on an element that never appears gives 400 naming it', async () => {
    const r = await svc.call(`/api/screenshot?url=${encodeURIComponent(`${site.url}/`)}&wait_for=%23never`, {
      headers: { 'X-API-Key': keys[2] },
    });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/wait_for.*#never/);
  });

  it('delay waits before capture (an element added after 700 ms is in the image)', async () => {
    const r = await shot({ url: `${site.url}/late`, delay: 1200, full_page: false, width: 400, height: 300 });
    expect(near((await decode(r.buffer)).pixel(50, 50), [0, 255, 0])).to.equal(true);
  });

  it('delay above 10000 without a key gives 400; the same with a key is accepted by validation', async () => {
    const keyless = await svc.call(`/api/screenshot?url=${encodeURIComponent(site.url)}&delay=15000`);
    expect(keyless.status).to.equal(400);
    expect(keyless.body.error).to.match(/delay must be at most 10000/);
    const tooLong = await shot({ url: site.url, delay: 30001 });
    expect(tooLong.status).to.equal(400);
    expect(tooLong.body.error).to.match(/delay must be an integer between 0 and 30000/);
  });

  it('http_username/http_password: 401 page without them, the protected page with them, 401 from us without a key', async () => {
    const without = await shot({ url: `${site.url}/auth`, full_page: false });
    expect(without.headers.get('x-target-status')).to.equal('401');
    expect(near((await decode(without.buffer)).pixel(10, 300), [255, 0, 0])).to.equal(true);
    const withAuth = await shot({ url: `${site.url}/auth`, full_page: false, http_username: 'alice', http_password: 's3cret' });
    expect(withAuth.headers.get('x-target-status')).to.equal('200');
    expect(near((await decode(withAuth.buffer)).pixel(10, 300), [0, 255, 0])).to.equal(true);
    const keyless = await svc.call(`/api/screenshot?url=${encodeURIComponent(site.url)}&http_username=a&http_password=b`);
    expect(keyless.status).to.equal(401);
    expect(keyless.body.error).to.match(/require an API key/);
  });

  it('accept_language sets the header and navigator.language; lang is its alias', async () => {
    for (const param of ['accept_language', 'lang']) {
      const r = await shot({
        url: `${site.url}/lang`,
        [param]: 'de-DE',
        js: `const h = document.getElementById('header').textContent, n = document.getElementById('nav').textContent;
             if (!h.startsWith('de-DE') || n !== 'de-DE') throw new Error('header=' + h + ' nav=' + n);`,
      });
      expect(r.status, r.text).to.equal(200);
    }
  });

  it('a target answering 404 is still captured and the status is in X-Target-Status', async () => {
    const r = await shot({ url: `${site.url}/missing`, full_page: false });
    expect(r.status).to.equal(200);
    expect(r.headers.get('x-target-status')).to.equal('404');
    expect(near((await decode(r.buffer)).pixel(10, 300), [255, 255, 0])).to.equal(true);
  });

  it('an unreachable target gives 502 naming the target as given', async () => {
    const r = await shot({ url: 'http://127.0.0.1:1/' });
    expect(r.status).to.equal(502);
    expect(r.body.error).to.match(/^127\.0\.0\.1:1 (is unreachable|could not be loaded)/);
  });

  it('a target that starts a download gives 502 saying it is not a page', async () => {
    const r = await shot({ url: `${site.url}/download` });
    expect(r.status).to.equal(502);
    expect(r.body.error).to.equal(`the navigation was aborted: ${new URL(site.url).host} sent no page the browser shows (it started a download or closed the page)`);
  });

  it('invalid parameters give 400 naming them', async () => {
    const cases: Array<[Record<string, string | number>, RegExp]> = [
      [{ url: site.url, width: 5000 }, /width must be an integer between 100 and 3840/],
      [{ url: site.url, height: 3000 }, /height must be an integer between 100 and 2160/],
      [{ url: site.url, format: 'gif' }, /format must be one of/],
      [{ url: site.url, scale: 4 }, /scale must be one of 1, 2, 3/],
      [{ url: site.url, quality: 0 }, /quality must be an integer between 1 and 100/],
      [{ url: site.url, viewport: 'watch' }, /viewport must be one of/],
      [{ url: site.url, clip: '1,2,3' }, /clip must be four/],
      [{ url: 'file:///etc/passwd' }, /url must use the http or https scheme/],
    ];
    for (const [params, message] of cases) {
      const r = await shot(params);
      expect(r.status, JSON.stringify(params)).to.equal(400);
      expect(r.body.error).to.match(message);
    }
  });
});
