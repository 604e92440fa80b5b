import { expect } from 'chai';
import type { IncomingHttpHeaders } from 'node:http';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import sharp from 'sharp';
import { startTestService, type TestService } from '../support/service.js';
import { readEvents } from '../support/event-stream.js';
import { until } from '../support/wait.js';
import { secretSealer } from '../../server/jobs/sealed-secrets.js';
import { createConfig } from '../../server/config.js';

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

  it('POST /api/screenshot/batch shoots protected pages of one origin with the headers; a batch spanning origins with headers answers 400 naming target_headers', async () => {
    const r = await svc.call('/api/screenshot/batch', {
      method: 'POST',
      headers: { 'x-api-key': key },
      json: { urls: [`${preview.url}/`, `${preview.url}/about`], width: 400, height: 300, target_headers: { Authorization: BEARER } },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.results.map((x: { target_status: number }) => x.target_status)).to.deep.equal([200, 200]);
    expect(leaked()).to.deep.equal([]);

    const mixed = await svc.call('/api/screenshot/batch', {
      method: 'POST',
      headers: { 'x-api-key': key },
      json: { urls: [`${preview.url}/`, `${other.url}/external`], target_headers: { Authorization: BEARER } },
    });
    expect(mixed.status, mixed.text).to.equal(400);
    expect(mixed.body.error).to.match(/target_headers .*one origin/);
    expect(mixed.text).not.to.contain(BEARER);
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

  it('POST /api/compare with target_headers on a service without JOB_SECRETS_KEY answers 400 saying how to set it', async () => {
    const r = await svc.call('/api/compare', { method: 'POST', headers: { 'x-api-key': key }, json: { baseline_url: other.url, preview_url: preview.url, checks: ['links'], target_headers: { 'x-vercel-protection-bypass': BYPASS } } });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/target_headers .*JOB_SECRETS_KEY/);
    expect(r.text).not.to.contain(BYPASS);
  });

  it('POST /api/screenshot/diff with more than 10 target_headers answers 400 naming the parameter', async () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`x-h${i}`, 'v']));
    const r = await svc.call('/api/screenshot/diff', { method: 'POST', headers: { 'x-api-key': key }, json: { baseline_url: other.url, candidate_url: preview.url, target_headers: many } });
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/target_headers may hold at most 10 headers/);
  });
});

/** Queued jobs keep the headers sealed in Redis and use them when they run. */
describe('target_headers on queued jobs: sealed in Redis with JOB_SECRETS_KEY, used by the worker', function () {
  this.timeout(180_000);
  let preview: FixtureServer;
  let other: FixtureServer;
  let svc: TestService;
  let key: string;
  const otherHits: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  /** Requests that reached the preview without the header. */
  const unauthorized: string[] = [];

  before(async () => {
    other = await startFixtureServer((req, res) => {
      otherHits.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>production</title><body style="background:#0a0"><a href="/">home</a>');
    }, '127.0.0.2');
    preview = await startFixtureServer((req, res) => {
      if (req.headers['x-vercel-protection-bypass'] !== BYPASS) {
        unauthorized.push(req.url ?? '');
        return void res.writeHead(401, { 'content-type': 'text/html' }).end('<!doctype html><body style="background:#fff">protected');
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>preview</title><body style="background:#0a0"><a href="/">home</a> <a href="${other.url}/external">x</a>`);
    });
    svc = await startTestService({ JOB_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'), LINK_CACHE_OK_SECONDS: '0' }, { workers: true });
    await svc.deps.techDetector.ready();
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await preview?.close();
    await other?.close();
  });

  /** Every value under the service's Redis prefix (BullMQ's job hashes included), as text. */
  async function redisText(): Promise<string> {
    const redis = svc.deps.redis;
    const prefix = svc.deps.config.REDIS_PREFIX;
    const out: string[] = [];
    for (const k of await redis.keys(`*${prefix}*`)) {
      const type = await redis.type(k);
      if (type === 'hash') out.push(JSON.stringify(await redis.hgetall(k)));
      else if (type === 'string') out.push((await redis.get(k)) ?? '');
      else if (type === 'list') out.push(JSON.stringify(await redis.lrange(k, 0, -1)));
    }
    return out.join('\n');
  }

  it('POST /api/screenshot/queue shoots the protected page (its pixels, not the 401 page), and Redis never holds the header in the clear', async () => {
    const headers = { 'X-API-Key': key };
    const queued = await svc.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: `${preview.url}/`, format: 'png', width: 400, height: 300, full_page: false, target_headers: { 'x-vercel-protection-bypass': BYPASS } } });
    expect(queued.status, queued.text).to.equal(202);
    expect(await redisText()).to.contain('sealed_headers').and.not.to.contain(BYPASS);
    const done = await until('the job to complete', async () => {
      const r = await svc.call(`/api/screenshot/result/${queued.body.job_id}`, { headers });
      return r.status === 200 ? r : undefined;
    }, 60_000, 200);
    expect(done.text).not.to.contain(BYPASS);
    const { data, info } = await sharp(Buffer.from(done.body.image, 'base64')).raw().toBuffer({ resolveWithObject: true });
    const at = (info.width * Math.floor(info.height / 2) + Math.floor(info.width / 2)) * info.channels;
    expect([data[at], data[at + 1], data[at + 2]]).to.deep.equal([0, 170, 0]);
  });

  it('POST /api/compare reaches the protected preview with the header in every check (links, SEO, performance, tech stack, screenshots); production and the external link never get it, and the report never shows it', async () => {
    unauthorized.length = 0;
    const queued = await svc.call('/api/compare', {
      method: 'POST',
      headers: { 'X-API-Key': key },
      json: { baseline_url: other.url, preview_url: preview.url, checks: ['links', 'seo', 'perf', 'techstack', 'visual'], viewports: [{ width: 400, height: 300 }], target_headers: { 'x-vercel-protection-bypass': BYPASS } },
    });
    expect(queued.status, queued.text).to.equal(202);
    const last = (await readEvents(queued.body.events_url, key)).at(-1);
    expect(last?.event, JSON.stringify(last)).to.equal('report');
    const report = last?.data;
    expect(JSON.stringify(report)).not.to.contain(BYPASS);
    const links = report.results.find((r: { check: string }) => r.check === 'links');
    expect(links.scores.preview, JSON.stringify(links)).to.equal(100);
    const visual = report.results.find((r: { check: string }) => r.check === 'visual');
    expect(JSON.stringify(visual.items)).not.to.contain('failed_on_preview');
    expect(otherHits.map((h) => h.url)).to.include('/external');
    expect(otherHits.filter((h) => h.headers['x-vercel-protection-bypass'] !== undefined)).to.deep.equal([]);
    expect(unauthorized).to.deep.equal([]);
  });
});

describe('JOB_SECRETS_KEY and the sealed secrets of queued jobs', () => {
  const key = Buffer.alloc(32, 9);

  it('a sealed value opens with its key for its owner, and with no other owner, key or altered byte', () => {
    const sealer = secretSealer(key);
    const sealed = sealer.seal('owner-a', { 'x-vercel-protection-bypass': BYPASS });
    expect(sealed).not.to.contain(BYPASS);
    expect(sealer.open('owner-a', sealed)).to.deep.equal({ 'x-vercel-protection-bypass': BYPASS });
    expect(() => sealer.open('owner-b', sealed)).to.throw();
    expect(() => secretSealer(Buffer.alloc(32, 1)).open('owner-a', sealed)).to.throw();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    expect(() => sealer.open('owner-a', [...parts.slice(0, 3), body.toString('base64url')].join('.'))).to.throw();
  });

  it('createConfig refuses a JOB_SECRETS_KEY that is not 32 bytes, naming the setting', () => {
    expect(() => createConfig({ JOB_SECRETS_KEY: Buffer.alloc(16).toString('base64') })).to.throw(/JOB_SECRETS_KEY/);
    expect(createConfig({ JOB_SECRETS_KEY: key.toString('hex') }).JOB_SECRETS_KEY?.equals(key)).to.equal(true);
  });
});
