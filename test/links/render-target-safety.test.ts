import { expect } from 'chai';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * Full mode runs a page's scripts in the browser: what those scripts request must be refused
 * as the crawler's own requests are. Loopback only: 127.0.0.1 plays the private network,
 * 127.0.0.2 (the one address the service allows) a public site.
 */
describe('GET /api/deadlinks, full mode: what a rendered page\'s scripts request is held to target safety', function () {
  this.timeout(90_000);
  const privateHits: string[] = [];
  let privateServer: FixtureServer;
  let publicServer: FixtureServer;
  let svc: TestService;

  before(async () => {
    privateServer = await startFixtureServer((req, res) => {
      privateHits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': req.url?.endsWith('.js') ? 'text/javascript' : 'text/plain', 'access-control-allow-origin': '*' });
      res.end(req.url?.endsWith('.js') ? `document.body.insertAdjacentHTML('beforeend', '<a href="/from-private-script">x</a>')` : 'secret');
    });
    const priv = `http://127.0.0.1:${privateServer.port}`;
    // The page's scripts reach for the private network three ways: fetch, XHR and a script element.
    const page = `<!doctype html><title>t</title><body><a href="/ok">ok</a>
      <script>
        fetch('${priv}/by-fetch').then((r) => r.text()).then((t) => document.body.insertAdjacentHTML('beforeend', '<a href="/leak-' + t + '">x</a>'), () => undefined);
        const x = new XMLHttpRequest(); x.open('GET', '${priv}/by-xhr'); x.send();
        const s = document.createElement('script'); s.src = '${priv}/by-script.js'; document.head.append(s);
      </script></body>`;
    publicServer = await startFixtureServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? page : '<p>ok</p>');
    }, '127.0.0.2', privateServer.port);
    svc = await startTestService({ ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', LINK_CACHE_OK_SECONDS: '0' });
  });
  after(async () => {
    await svc?.close();
    await privateServer?.close();
    await publicServer?.close();
  });

  it('renders the page, and no request of its scripts reaches the private address', async () => {
    const key = await svc.newKey('business');
    const r = await svc.call(`/api/deadlinks?url=${encodeURIComponent(`http://127.0.0.2:${privateServer.port}/`)}`, { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.summary.rendered_pages).to.equal(1);
    expect(privateHits).to.deep.equal([]);
    const urls = [...r.body.broken_links, ...(r.body.checked_urls ?? [])].map((i: { url?: string } | string) => (typeof i === 'string' ? i : i.url));
    expect(urls.join(' ')).not.to.match(/leak-secret|from-private-script/);
    expect(r.body.pages_crawled).to.equal(2);
  });
});
