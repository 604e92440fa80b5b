import { expect } from 'chai';
import { startFixtureServer } from '../support/fixture-server.js';
import { createSafeHttp, netErrorKind } from '../../server/net/safe-http.js';
import { createTargetPolicy } from '../../server/net/target-policy.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * Only loopback is used: 127.0.0.1 plays the private network that must stay out of reach;
 * 127.0.0.2, on the same port, a "public" site (allowed by the policy's list) that points into it.
 */
async function startNetworks() {
  let hits = 0;
  const privateServer = await startFixtureServer((_req, res) => {
    hits++;
    res.end('secret');
  });
  const port = privateServer.port;
  const redirects: Record<string, string> = {
    '/to-private': `http://127.0.0.1:${port}/`,
    '/to-localhost': `http://localhost:${port}/`,
    '/to-decimal': `http://2130706433:${port}/`,
  };
  const publicServer = await startFixtureServer((req, res) => {
    const to = redirects[req.url ?? ''];
    if (to) res.writeHead(302, { location: to }).end();
    else res.setHeader('content-type', 'text/html').end(`<h1>public page</h1><a href="http://127.0.0.1:${port}/admin">admin</a><a href="http://localhost:${port}/x">x</a><a href="/ok">ok</a>`);
  }, '127.0.0.2', port);
  return {
    port,
    privateHits: () => hits,
    reset: () => void (hits = 0),
    close: () => Promise.all([privateServer.close(), publicServer.close()]),
  };
}

describe('target safety end to end', () => {
  let net: Awaited<ReturnType<typeof startNetworks>>;
  let port: number;

  before(async () => {
    net = await startNetworks();
    port = net.port;
  });
  after(() => net.close());
  beforeEach(() => net.reset());

  const http2 = () => createSafeHttp({ policy: createTargetPolicy('127.0.0.2/32') });

  it('fetches an allowed host', async () => {
    const client = http2();
    const res = await client.fetch(`http://127.0.0.2:${port}/`);
    expect(await res.text()).to.include('public page');
    await client.close();
  });

  for (const target of ['127.0.0.1', 'localhost', '2130706433', '0x7f.1', '[::ffff:127.0.0.1]', '127.1']) {
    it(`refuses http://${target}:port/ before any byte reaches the private server`, async () => {
      const client = http2();
      const err = await client.fetch(`http://${target}:${port}/`).then(() => null, (e: unknown) => e);
      expect(netErrorKind(err)).to.equal('blocked_target');
      expect(net.privateHits()).to.equal(0);
      await client.close();
    });
  }

  for (const path of ['/to-private', '/to-localhost', '/to-decimal']) {
    it(`refuses a redirect from the allowed host to loopback (${path})`, async () => {
      const client = http2();
      const err = await client.fetch(`http://127.0.0.2:${port}${path}`).then(() => null, (e: unknown) => e);
      expect(netErrorKind(err)).to.equal('blocked_target');
      expect(net.privateHits()).to.equal(0);
      await client.close();
    });
  }

  it('with ALLOW_PRIVATE_TARGETS=true, loopback is reachable', async () => {
    const client = createSafeHttp({ policy: createTargetPolicy('true') });
    const res = await client.fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).to.equal('secret');
    await client.close();
  });
});

/** The same rule through the API: the service allows only 127.0.0.2. */
describe('target safety through the API', function () {
  this.timeout(60_000);
  let net: Awaited<ReturnType<typeof startNetworks>>;
  let port: number;
  let svc: TestService;
  let key: string;

  before(async () => {
    net = await startNetworks();
    port = net.port;
    svc = await startTestService({ ALLOW_PRIVATE_TARGETS: '127.0.0.2/32' });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc.close();
    await net.close();
  });
  beforeEach(() => net.reset());

  const get = (path: string) => svc.call(path, { headers: { 'X-API-Key': key } });

  it('GET /api/perf, for a loopback URL, answers 400 naming the refused address', async () => {
    const r = await get(`/api/perf?url=${encodeURIComponent(`http://127.0.0.1:${port}/`)}`);
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/127\.0\.0\.1 is a loopback address/);
    expect(net.privateHits()).to.equal(0);
  });

  it('GET /api/perf, for an allowed host that redirects to loopback, refuses the hop', async () => {
    const r = await get(`/api/perf?url=${encodeURIComponent(`http://127.0.0.2:${port}/to-private`)}`);
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/loopback/);
    expect(net.privateHits()).to.equal(0);
  });

  it('GET /api/deadlinks, on an allowed page linking to loopback, reports blocked_target without a request', async () => {
    const r = await get(`/api/deadlinks?mode=quick&url=${encodeURIComponent(`http://127.0.0.2:${port}/`)}`);
    expect(r.status).to.equal(200);
    const kinds = Object.fromEntries(r.body.broken_links.map((l: { url: string; kind: string }) => [l.url, l.kind]));
    expect(kinds[`http://127.0.0.1:${port}/admin`]).to.equal('blocked_target');
    expect(kinds[`http://localhost:${port}/x`]).to.equal('blocked_target');
    expect(net.privateHits()).to.equal(0);
  });
});

describe('a loopback target refused, as a new user and a stranger meet it', function () {
  this.timeout(60_000);
  let local: TestService;
  let hosted: TestService;
  let site: Awaited<ReturnType<typeof startFixtureServer>>;

  before(async () => {
    site = await startFixtureServer((_req, res) => res.setHeader('content-type', 'text/html').end('<title>local</title>'));
    // PUBLIC_BASE_URL on loopback (the default) is an operator's own instance; a public one is production.
    local = await startTestService({ ALLOW_PRIVATE_TARGETS: 'false' });
    hosted = await startTestService({ ALLOW_PRIVATE_TARGETS: 'false', PUBLIC_BASE_URL: 'https://sitelens.example.com' });
  });
  after(async () => {
    await Promise.all([local.close(), hosted.close()]);
    await site.close();
  });

  it('GET /api/techstack on an instance of its own operator names the setting that allows local sites', async () => {
    const r = await local.call(`/api/techstack?url=${encodeURIComponent(`http://localhost:${site.port}/`)}`);
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/localhost resolves to a loopback address.*restart this instance with ALLOW_PRIVATE_TARGETS=true/);
  });

  it('GET /api/perf on a public instance says the operator can allow private addresses, without naming settings', async () => {
    const r = await hosted.call(`/api/perf?url=${encodeURIComponent(`http://127.0.0.1:${site.port}/`)}`);
    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/127\.0\.0\.1 is a loopback address.*its operator can allow private addresses/);
    expect(r.body.error).not.to.match(/ALLOW_PRIVATE_TARGETS|PUBLIC_BASE_URL/);
  });

  it('keyless refused calls are not charged: the one-per-2-minutes tech-stack limit still lets a real call through', async () => {
    for (let i = 0; i < 3; i++) {
      const refused = await hosted.call(`/api/techstack?url=${encodeURIComponent(`http://127.0.0.1:${site.port}/`)}`);
      expect(refused.status, `refusal #${i + 1}`).to.equal(400);
      expect(refused.headers.get('ratelimit-remaining')).to.equal('1');
    }
  });

  it('keyed refused calls are not charged: usage and the per-minute window are as before', async () => {
    const key = await local.newKey();
    const headers = { 'X-API-Key': key };
    for (let i = 0; i < 6; i++) {
      const refused = await local.call(`/api/seo?url=${encodeURIComponent(`http://127.0.0.1:${site.port}/`)}`, { headers });
      expect(refused.status, `refusal #${i + 1}`).to.equal(400);
    }
    const usage = await local.call('/api/usage', { headers });
    expect(usage.body.calls_this_period).to.equal(0);
    expect(usage.body.rate_limit_remaining_today).to.equal(20);
  });
});

describe('a target refused or unresolvable reads the same in fetch and render mode', function () {
  this.timeout(120_000);
  let svc: TestService;
  let site: Awaited<ReturnType<typeof startFixtureServer>>;
  let key: string;

  before(async () => {
    site = await startFixtureServer((_req, res) => res.setHeader('content-type', 'text/html').end('<title>local</title>'));
    svc = await startTestService({ ALLOW_PRIVATE_TARGETS: 'false' });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc.close();
    await site.close();
  });

  const answer = async (path: string, url: string) => {
    const r = await svc.call(`${path}${path.includes('?') ? '&' : '?'}url=${encodeURIComponent(url)}`, { headers: { 'X-API-Key': key } });
    return `${r.status} ${r.body?.error ?? r.text.slice(0, 120)}`;
  };

  for (const [what, url, status] of [
    ['a trailing-dot loopback name (localhost.)', () => `http://localhost.:${site.port}/`, 400],
    ['a name that does not resolve', () => 'http://no-such-host.invalid/', 502],
  ] as const) {
    it(`GET /api/techstack, /api/seo (render=true or not) and /api/screenshot, for ${what}: one status and one message`, async () => {
      const answers = {
        'techstack fetch': await answer('/api/techstack', url()),
        'techstack render': await answer('/api/techstack?render=true', url()),
        'seo fetch': await answer('/api/seo', url()),
        'seo render': await answer('/api/seo?render=true', url()),
        screenshot: await answer('/api/screenshot?full_page=false', url()),
      };
      expect(new Set(Object.values(answers)).size, JSON.stringify(answers, null, 2)).to.equal(1);
      expect(answers['seo render']).to.match(new RegExp(`^${status} ${status === 400 ? 'target refused: localhost\\. resolves to a loopback address' : 'no-such-host\\.invalid is unreachable: the host name does not resolve'}`));
    });
  }
});
