import { expect } from 'chai';
import type { IncomingHttpHeaders } from 'node:http';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestService, type TestService } from '../support/service.js';

const BYPASS = 'bypass-8f2c1e';
const BEARER = 'Bearer t0ken-51d9';

/**
 * Protected previews: `target_headers` reach the target's own origin and nothing else.
 * 127.0.0.1 serves a preview that answers 401 unless it gets Vercel's bypass header or the
 * right Authorization; 127.0.0.2 plays every other host (external links, third-party
 * subresources, where a redirect leads) and records what it was sent.
 */
describe('target_headers: protected previews get their headers, other hosts never do', function () {
  this.timeout(120_000);
  let preview: FixtureServer;
  let other: FixtureServer;
  let svc: TestService;
  let key: string;
  const previewHits: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const otherHits: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

  before(async () => {
    other = await startFixtureServer((req, res) => {
      otherHits.push({ url: req.url ?? '', headers: req.headers });
      if (req.url?.endsWith('.png')) {
        res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html', 'access-control-allow-origin': '*' }).end('<p>elsewhere</p>');
    }, '127.0.0.2');
    const elsewhere = other.url;
    const page = `<!doctype html><title>preview</title><body style="background:#0a0">
      <a href="/about">about</a> <a href="/off-origin">moved</a> <a href="${elsewhere}/external">external</a>
      <img src="${elsewhere}/pixel.png"> <iframe src="/off-origin"></iframe>
      <script>
        fetch('/api/secret-path').then((r) => r.text()).then((t) => document.body.insertAdjacentHTML('beforeend', '<a href="/' + t + '">x</a>'));
        fetch('${elsewhere}/third-party').catch(() => undefined);
      </script></body>`;
    preview = await startFixtureServer((req, res) => {
      previewHits.push({ url: req.url ?? '', headers: req.headers });
      const allowed = req.headers['x-vercel-protection-bypass'] === BYPASS || req.headers.authorization === BEARER;
      if (!allowed) return void res.writeHead(401, { 'content-type': 'text/plain' }).end('protected');
      if (req.url === '/off-origin') return void res.writeHead(302, { location: `${elsewhere}/landing` }).end();
      if (req.url === '/api/secret-path') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('from-script');
      res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? page : '<p>ok</p>');
    });
    svc = await startTestService({ LINK_CACHE_OK_SECONDS: '0' });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await preview?.close();
    await other?.close();
  });
  beforeEach(() => {
    previewHits.length = 0;
    otherHits.length = 0;
  });

  const leaked = () => otherHits.filter((h) => h.headers['x-vercel-protection-bypass'] !== undefined || h.headers.authorization !== undefined);
  const q = (headers: Record<string, string>) => encodeURIComponent(JSON.stringify(headers));

  it('GET /api/deadlinks, full mode with the bypass header, checks the protected preview (script-fetched links too) and sends the header to no other host', async () => {
    const r = await svc.call(`/api/deadlinks?url=${encodeURIComponent(preview.url + '/')}&target_headers=${q({ 'x-vercel-protection-bypass': BYPASS })}`, { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.broken_links, JSON.stringify(r.body.broken_links)).to.deep.equal([]);
    expect(r.body.summary.rendered_pages).to.be.greaterThan(0);
    // The link the page's script inserted from the protected API: the render's own request carried the header.
    expect(previewHits.some((h) => h.url === '/api/secret-path' && h.headers['x-vercel-protection-bypass'] === BYPASS)).to.equal(true);
    expect(previewHits.some((h) => h.url === '/from-script')).to.equal(true);
    expect(otherHits.map((h) => h.url)).to.include.members(['/external', '/landing']);
    expect(leaked()).to.deep.equal([]);
    expect(r.text).not.to.contain(BYPASS);
  });

  it('GET /api/deadlinks, quick mode without the header, finds the preview answering 401 (the header is what made it pass)', async () => {
    const r = await svc.call(`/api/deadlinks?url=${encodeURIComponent(preview.url + '/')}&mode=quick`, { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.pages_crawled).to.equal(0);
    expect(previewHits.every((h) => h.headers['x-vercel-protection-bypass'] === undefined)).to.equal(true);
  });

  it('GET /api/screenshot with an Authorization header shoots the protected page, and its third-party requests and off-origin frame go without it', async () => {
    const r = await svc.call(`/api/screenshot?url=${encodeURIComponent(preview.url + '/')}&response_type=json&full_page=false&target_headers=${q({ Authorization: BEARER })}`, {
      headers: { 'x-api-key': key },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.target_status).to.equal(200);
    expect(otherHits.map((h) => h.url)).to.include.members(['/pixel.png', '/landing']);
    expect(leaked()).to.deep.equal([]);
  });

  it('POST /api/screenshot/diff sends the headers to the candidate\'s origin only', async () => {
    const r = await svc.call('/api/screenshot/diff', {
      method: 'POST',
      headers: { 'x-api-key': key },
      json: { baseline_url: `${other.url}/baseline`, candidate_url: `${preview.url}/`, width: 400, height: 300, full_page: false, target_headers: { 'x-vercel-protection-bypass': BYPASS } },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.candidate_status).to.equal(200);
    expect(r.body.baseline_status).to.equal(200);
    expect(otherHits.map((h) => h.url)).to.include('/baseline');
    expect(leaked()).to.deep.equal([]);
  });

  for (const [what, headers, rule] of [
    ['Host', { Host: 'evil.example' }, /target_headers header "Host" is refused/],
    ['a hop-by-hop header', { Connection: 'close' }, /target_headers header "Connection" is refused/],
    ['a name that is no HTTP token', { 'x bad': 'v' }, /not a valid name/],
    ['a value with a line break', { 'x-token': 'secret-value\r\nx-injected: 1' }, /without line breaks/],
  ] as const) {
    it(`GET /api/deadlinks with ${what} in target_headers answers 400 naming target_headers, without echoing a value`, async () => {
      const r = await svc.call(`/api/deadlinks?url=${encodeURIComponent(preview.url + '/')}&target_headers=${q(headers)}`, { headers: { 'x-api-key': key } });
      expect(r.status).to.equal(400);
      expect(r.body.error).to.match(rule);
      expect(r.body.error).not.to.contain('secret-value');
      expect(r.body.error).not.to.contain('evil.example');
    });
  }

  it('POST /api/screenshot/diff with more than 10 target_headers answers 400 naming the parameter', async () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`x-h${i}`, 'v']));
    const r = await svc.call('/api/screenshot/diff', { method: 'POST', headers: { 'x-api-key': key }, json: { baseline_url: other.url, candidate_url: preview.url, target_headers: many } });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/target_headers may hold at most 10 headers/);
  });
});
