import { expect } from 'chai';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The tech-stack fetch reads raw header lines through its own composition of the safe
 * client's dispatcher; it must refuse what that client refuses. Loopback only: 127.0.0.1
 * plays the private network, 127.0.0.2 (the one address the service allows) a public site.
 */
describe('GET /api/techstack, target safety of the page fetch', function () {
  let hits = 0;
  let privateServer: FixtureServer;
  let publicServer: FixtureServer;
  let port: number;
  let svc: TestService;
  let key: string;

  before(async function () {
    privateServer = await startFixtureServer((_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'text/html', 'x-powered-by': 'PHP/8.2.1' }).end('<p>secret</p>');
    });
    port = privateServer.port;
    publicServer = await startFixtureServer((req, res) => {
      if (req.url === '/to-private') res.writeHead(302, { location: `http://127.0.0.1:${port}/` }).end();
      else res.writeHead(200, { 'content-type': 'text/html', 'x-powered-by': 'Express' }).end('<p>public</p>');
    }, '127.0.0.2', port);
    svc = await startTestService({ ALLOW_PRIVATE_TARGETS: '127.0.0.2/32' });
    key = await svc.newKey('business');
  });

  after(async function () {
    await svc?.close();
    await privateServer?.close();
    await publicServer?.close();
  });

  beforeEach(() => void (hits = 0));

  const detect = (url: string) => svc.call(`/api/techstack?url=${encodeURIComponent(url)}`, { headers: { 'X-API-Key': key } });

  it('for the allowed host, reads its header lines', async function () {
    const r = await detect(`http://127.0.0.2:${port}/`);

    expect(r.status, r.text).to.equal(200);
    expect(r.body.headers).to.include({ 'x-powered-by': 'Express' });
  });

  it('for a loopback URL, answers 400 without a request to it', async function () {
    const r = await detect(`http://127.0.0.1:${port}/`);

    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/127\.0\.0\.1 is a loopback address/);
    expect(hits).to.equal(0);
  });

  it('for an allowed host that redirects to loopback, refuses the hop without a request to it', async function () {
    const r = await detect(`http://127.0.0.2:${port}/to-private`);

    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/loopback/);
    expect(hits).to.equal(0);
  });
});
