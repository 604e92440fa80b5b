import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { chartTypes } from '../../server/api/routes/charts.js';
import { startTestService, type TestService } from '../support/service.js';

const dataFor = (type: string) =>
  type === 'scatter'
    ? { datasets: [{ label: 'points', data: [{ x: 1, y: 2 }, { x: 3, y: 1 }, { x: 5, y: 4 }], backgroundColor: '#e6194b' }] }
    : type === 'bubble'
      ? { datasets: [{ label: 'bubbles', data: [{ x: 1, y: 2, r: 10 }, { x: 3, y: 1, r: 20 }], backgroundColor: '#3cb44b' }] }
      : {
          labels: ['Jan', 'Feb', '三月', 'Apr 🎉'],
          datasets: [{ label: 'Sales', data: [3, 7, 4, 6], backgroundColor: ['#e6194b', '#3cb44b', '#4363d8', '#f58231'], borderColor: '#4363d8' }],
        };

describe('POST /api/charts/render', function () {
  this.timeout(60_000);
  let svc: TestService;
  let key: string;

  const render = (json: unknown, k: string | undefined = key) =>
    svc.call('/api/charts/render', { method: 'POST', json, headers: k ? { 'X-API-Key': k } : {} });

  before(async () => {
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(() => svc?.close());

  for (const type of chartTypes) {
    it(`type=${type} renders a PNG of the requested size with something drawn on it`, async () => {
      const r = await render({ type, data: dataFor(type), width: 640, height: 360 });
      expect(r.status, r.text).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('image/png');
      const { data, info } = await sharp(r.buffer).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).to.deep.equal([640, 360]);
      const colours = new Set<number>();
      for (let i = 0; i < data.length; i += info.channels * 7) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      expect(colours.size, 'distinct colours').to.be.greaterThan(5);
    });
  }

  it('defaults to 800x450 on white', async () => {
    const r = await render({ type: 'bar', data: dataFor('bar') });
    const { data, info } = await sharp(r.buffer).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).to.deep.equal([800, 450]);
    expect([data[0], data[1], data[2]]).to.deep.equal([255, 255, 255]);
  });

  it('format=jpeg with quality gives a JPEG; lower quality is smaller', async () => {
    const hi = await render({ type: 'line', data: dataFor('line'), format: 'jpeg', quality: 95 });
    const lo = await render({ type: 'line', data: dataFor('line'), format: 'jpeg', quality: 5 });
    expect(hi.headers.get('content-type')).to.equal('image/jpeg');
    expect(hi.buffer.subarray(0, 3).toString('hex')).to.equal('ffd8ff');
    expect(hi.buffer.length).to.be.greaterThan(lo.buffer.length);
  });

  it('background=transparent PNG has transparent pixels; a colour fills the corners', async () => {
    const t = await sharp((await render({ type: 'pie', data: dataFor('pie'), background: 'transparent' })).buffer)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(t.info.channels).to.equal(4);
    expect(t.data[3]).to.equal(0);
    const c = await sharp((await render({ type: 'pie', data: dataFor('pie'), background: 'rgb(0, 0, 255)' })).buffer).raw().toBuffer();
    expect([c[0], c[1], c[2]]).to.deep.equal([0, 0, 255]);
  });

  it('background=transparent with jpeg, or a non-colour, gives 400', async () => {
    const jpeg = await render({ type: 'bar', data: dataFor('bar'), format: 'jpeg', background: 'transparent' });
    expect(jpeg.status).to.equal(400);
    expect(jpeg.body.error).to.match(/transparent.*png/);
    const bad = await render({ type: 'bar', data: dataFor('bar'), background: 'not-a-colour' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.match(/background/);
  });

  it('a configuration Chart.js rejects gives 400 with the reason', async () => {
    const r = await render({ type: 'bar', data: dataFor('bar'), options: { scales: { x: { type: 'nope' } } } });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/invalid chart configuration: .*nope.*not a registered scale/);
  });

  it('invalid input gives 400 naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'gauge', data: dataFor('bar') }, /type must be one of/],
      [{ type: 'bar' }, /data is required/],
      [{ type: 'bar', data: { datasets: [] } }, /data.datasets must have at least 1/],
      [{ type: 'bar', data: dataFor('bar'), width: 99 }, /width must be at least 100/],
      [{ type: 'bar', data: dataFor('bar'), height: 1601 }, /height must be at most 1600/],
      [{ type: 'bar', data: dataFor('bar'), format: 'webp' }, /format must be one of png, jpeg/],
    ];
    for (const [body, message] of cases) {
      const r = await render(body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.error).to.match(message);
    }
  });

  it('a function given as a string in the options is never executed', async () => {
    const marker = path.join(os.tmpdir(), `chart-pwned-${process.pid}`);
    const code = `function () { require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); return 'x'; }`;
    const r = await render({
      type: 'bar',
      data: dataFor('bar'),
      options: {
        plugins: { tooltip: { callbacks: { label: code } }, title: { display: true, text: code } },
        scales: { y: { ticks: { callback: code } } },
        __proto__: { polluted: true },
      },
    });
    expect([200, 400]).to.include(r.status);
    expect(fs.existsSync(marker)).to.equal(false);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('without a key gives 401', async () => {
    const r = await render({ type: 'bar', data: dataFor('bar') }, '');
    expect(r.status).to.equal(401);
  });

  it('/openapi/charts documents the endpoint', async () => {
    const r = await svc.call('/openapi/charts');
    expect(r.status).to.equal(200);
    expect(r.body.paths).to.have.property('/api/charts/render');
    const health = await svc.call('/api/health');
    expect(health.body.apis).to.have.property('charts', '/api/charts/render');
  });
});
