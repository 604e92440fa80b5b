import { expect } from 'chai';
import sharp from 'sharp';
import { startTestService, type TestService } from '../support/service.js';
import { serve, type FixtureServer } from '../links/fixture-site.js';

const page = (body: string, style = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;background:#fff}${style}</style></head><body>${body}</body></html>`;

/** Pages for the diff: the same layout, one with a changed block, one taller, one with a "clock". */
export const diffPages = {
  '/a': page('<div style="width:200px;height:100px;background:#00f"></div>'),
  '/a-copy': page('<div style="width:200px;height:100px;background:#00f"></div>'),
  '/changed': page('<div style="width:200px;height:100px;background:#00f"></div><div style="width:300px;height:200px;background:#0a0"></div>'),
  '/tall': page('<div style="width:200px;height:100px;background:#00f"></div><div style="height:1000px"></div>'),
  '/clock-1': page('<div style="width:200px;height:100px;background:#00f"></div><div class="clock" style="width:100px;height:50px;background:#f80">1</div>'),
  '/clock-2': page('<div style="width:200px;height:100px;background:#00f"></div><div class="clock" style="width:100px;height:50px;background:#08f">2</div>'),
};

describe('POST /api/screenshot/diff', () => {
  let svc: TestService;
  let site: FixtureServer;
  let key: string;
  const diff = (json: Record<string, unknown>, k: string | null = key) =>
    svc.call('/api/screenshot/diff', { method: 'POST', json, headers: k ? { 'x-api-key': k } : {} });

  before(async () => {
    // /slow-reset: a page whose server breaks the connection after a while (fails later than a refused port).
    site = await serve({ ...diffPages, '/slow-reset': (req) => void setTimeout(() => req.socket.destroy(), 400) });
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await site?.close();
  });

  it('two identical pages: no changed pixels, images stored behind keyless URLs', async () => {
    const r = await diff({ baseline_url: `${site.url}/a`, candidate_url: `${site.url}/a-copy`, full_page: false, width: 400, height: 300 });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ changed_pixels: 0, changed_ratio: 0, width: 400, height: 300, baseline_status: 200, candidate_status: 200 });
    expect(r.body.id).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(r.body.images.diff).to.equal(`${svc.url}/api/screenshot/diff/${r.body.id}/diff`);
    for (const name of ['baseline', 'candidate', 'diff']) {
      const img = await fetch(r.body.images[name]);
      expect(img.status).to.equal(200);
      expect(img.headers.get('content-type')).to.equal('image/png');
      const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).to.deep.equal(['png', 400, 300]);
    }
  });

  it('a changed block: the changed ratio is its share of the page, painted red in the diff', async () => {
    const r = await diff({ baseline_url: `${site.url}/a`, candidate_url: `${site.url}/changed`, full_page: false, width: 400, height: 300 });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.changed_pixels).to.equal(300 * 200);
    expect(r.body.changed_ratio).to.equal(0.5);
    const png = Buffer.from(await (await fetch(r.body.images.diff)).arrayBuffer());
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect(at(150, 200)).to.deep.equal([255, 0, 0]);
    expect(at(350, 50)).not.to.deep.equal([255, 0, 0]);
  });

  it('pages of different heights: padded to the larger, the padding counted as changed', async () => {
    const r = await diff({ baseline_url: `${site.url}/a`, candidate_url: `${site.url}/tall`, width: 400, height: 300 });
    expect(r.status, r.text).to.equal(200);
    expect([r.body.width, r.body.height]).to.deep.equal([400, 1100]);
    expect(r.body.changed_pixels).to.equal(400 * 800);
    expect(r.body.changed_ratio).to.equal(Math.round((800 / 1100) * 1e6) / 1e6);
  });

  it('hide_selectors hides dynamic content in both captures; an invalid selector gives 400 naming it', async () => {
    const base = { baseline_url: `${site.url}/clock-1`, candidate_url: `${site.url}/clock-2`, full_page: false, width: 400, height: 300 };
    expect((await diff(base)).body.changed_pixels).to.be.greaterThan(0);
    const hidden = await diff({ ...base, hide_selectors: ['.clock'] });
    expect(hidden.body.changed_pixels, hidden.text).to.equal(0);
    const bad = await diff({ ...base, hide_selectors: ['..clock'] });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.equal('hide_selectors: not a valid CSS selector: "..clock"');
  });

  it('needs a key; bad input names the field; an unknown id is a JSON 404', async () => {
    expect((await diff({ baseline_url: `${site.url}/a`, candidate_url: `${site.url}/a` }, null)).status).to.equal(401);
    const wide = await diff({ baseline_url: `${site.url}/a`, candidate_url: `${site.url}/a`, width: 3000 });
    expect(wide.status).to.equal(400);
    expect(wide.body.error).to.match(/width/);
    const gone = await svc.call('/api/screenshot/diff/AAAAAAAAAAAAAAAAAAAAAA/diff');
    expect(gone.status).to.equal(404);
    expect(gone.body.error).to.match(/kept 7 days/);
  });

  it('an unreachable candidate: 502 naming candidate_url', async () => {
    const r = await diff({ baseline_url: `${site.url}/a`, candidate_url: 'http://127.0.0.1:1/', full_page: false });
    expect(r.status).to.equal(502);
    expect(r.body.error).to.match(/^candidate_url: /);
  });

  it('both sides unreachable: names baseline_url, whichever failed first (a comparison counts it as broken on both, not a regression)', async () => {
    // The baseline fails later than the candidate: a slow refusal against a fast one.
    const r = await diff({ baseline_url: `${site.url}/slow-reset`, candidate_url: 'http://127.0.0.1:1/', full_page: false });
    expect(r.status, r.text).to.equal(502);
    expect(r.body.error).to.match(/^baseline_url: /);
  });
});
