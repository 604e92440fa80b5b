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
      [{ type: 'bar', data: { datasets: [] } }, /data.datasets must be an array of 1 to 100 items, got 0 items/],
      [{ type: 'bar', data: dataFor('bar'), width: 99 }, /width must be an integer between 100 and 2400, got 99/],
      [{ type: 'bar', data: dataFor('bar'), height: 1601 }, /height must be an integer between 100 and 1600, got 1601/],
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

  /** Pixels of exactly `rgb` in a decoded PNG: what a dataset drawn in that colour left on the canvas. */
  const pixelsOf = async (png: Buffer, [r, g, b]: [number, number, number]) => {
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let n = 0;
    for (let i = 0; i < data.length; i += info.channels) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n++;
    return n;
  };

  for (const scale of ['time', 'timeseries'] as const) {
    it(`scales.x.type=${scale}, with ISO dates as x, draws the line (the date adapter is loaded in the worker)`, async () => {
      const points = [['2024-01-01', 3], ['2024-01-08', 9], ['2024-01-15', 4], ['2024-02-01', 12], ['2024-03-01', 7]];
      const r = await render({
        type: 'line',
        data: { datasets: [{ label: 'signups', data: points.map(([x, y]) => ({ x, y })), borderColor: '#ff0000', borderWidth: 4, pointRadius: 0 }] },
        options: { scales: { x: { type: scale, time: { unit: 'week' } } }, plugins: { legend: { display: false } } },
        width: 600,
        height: 300,
      });
      expect(r.status, r.text).to.equal(200);
      // A 4 px line across most of a 600 px wide chart: thousands of pure red pixels.
      expect(await pixelsOf(r.buffer, [255, 0, 0])).to.be.greaterThan(1500);
    });
  }

  it('Chart.js v2 option names answer 400 naming the Chart.js 4 option to use', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'horizontalBar' }, 'type horizontalBar is a Chart.js v2 type, use type "bar" with options.indexAxis "y" instead, got "horizontalBar"'],
      [{ options: { scales: { xAxes: [{ type: 'time' }] } } }, 'options.scales.xAxes is a Chart.js v2 option, use options.scales.x (one object per axis id, e.g. {"x": {"type": "linear"}}) instead'],
      [{ options: { legend: { display: false } } }, 'options.legend is a Chart.js v2 option, use options.plugins.legend instead'],
      [{ options: { tooltips: { enabled: false } } }, 'options.tooltips is a Chart.js v2 option, use options.plugins.tooltip instead'],
      [{ options: { scales: { y: { ticks: { beginAtZero: true } } } } }, 'options.scales.y.ticks.beginAtZero is a Chart.js v2 option, use options.scales.y.beginAtZero instead, got true'],
      [{ options: { scales: { y: { gridLines: { display: false } } } } }, 'options.scales.y.gridLines is a Chart.js v2 option, use options.scales.y.grid instead'],
      [{ data: { labels: ['a', 'b'], datasets: [{ data: [1, 2], lineTension: 0.4 }] } }, 'data.datasets[0].lineTension is a Chart.js v2 option, use data.datasets[0].tension instead, got 0.4'],
    ];
    for (const [change, error] of cases) {
      const r = await render({ type: 'line', data: dataFor('line'), ...change });
      expect(r.status, JSON.stringify(change)).to.equal(400);
      expect(r.body.error).to.equal(error);
    }
  });

  it('a v2 config with several v2 names lists each of them', async () => {
    const r = await render({ type: 'bar', data: dataFor('bar'), options: { legend: {}, title: { display: true, text: 'x' }, scales: { yAxes: [{}] } } });
    expect(r.body.error.split('; ')).to.have.length(3);
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
