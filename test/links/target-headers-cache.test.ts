import { expect } from 'chai';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestService, type TestService } from '../support/service.js';

const BYPASS = 'bypass-c4c8e1';

/**
 * A check with `target_headers` and the result cache: the protected origin's results are never
 * shared (it answers such a check as it answers no one else), while the external links are
 * cached as in any check, so a protected preview's second run does not ask them again.
 * 127.0.0.1 is the preview (401 without the bypass header); 127.0.0.2 every other host.
 */
describe('target_headers and the result cache: the protected origin is never cached, other links are', function () {
  this.timeout(60_000);
  let preview: FixtureServer;
  let other: FixtureServer;
  let svc: TestService;
  const hits = new Map<string, number>();
  const count = (where: string) => hits.get(where) ?? 0;

  before(async () => {
    preview = await startFixtureServer((req, res) => {
      hits.set(`preview${req.url}`, count(`preview${req.url}`) + 1);
      if (req.headers['x-vercel-protection-bypass'] !== BYPASS) return void res.writeHead(401, { 'content-type': 'text/plain' }).end('protected');
      const page = `<!doctype html><title>preview</title>
        <a href="/about">about</a>
        <a href="${other.url}/external">external</a>
        <a href="${other.url}/into-preview">goes to the preview</a>`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? page : '<p>ok</p>');
    });
    other = await startFixtureServer((req, res) => {
      hits.set(`other${req.url}`, count(`other${req.url}`) + 1);
      if (req.url === '/into-preview') return void res.writeHead(301, { location: `${preview.url}/about` }).end();
      if (req.url === '/public') {
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="${preview.url}/about">preview</a> <a href="${other.url}/into-preview">via</a>`);
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>elsewhere</p>');
    }, '127.0.0.2');
    svc = await startTestService({ LINK_CACHE_OK_SECONDS: '600' });
  });
  after(async () => {
    await svc?.close();
    await preview?.close();
    await other?.close();
  });

  it('GET /api/deadlinks twice with the bypass header: external links come from the cache the second time, the preview and links into it are asked again; a caller without the header gets none of those results', async () => {
    const key = await svc.newKey('business');
    const headers = encodeURIComponent(JSON.stringify({ 'x-vercel-protection-bypass': BYPASS }));
    const check = () => svc.call(`/api/deadlinks?url=${encodeURIComponent(preview.url + '/')}&mode=quick&target_headers=${headers}`, { headers: { 'x-api-key': key } });

    const first = await check();
    expect(first.status, first.text).to.equal(200);
    expect(first.body.broken_count, JSON.stringify(first.body.broken_links)).to.equal(0);
    const second = await check();
    expect(second.status, second.text).to.equal(200);
    expect(second.body.broken_count).to.equal(0);

    expect(count('other/external'), 'the external link, cached after the first run').to.equal(1);
    expect(second.body.summary.cached_results).to.equal(1);
    expect(count('other/into-preview'), 'a link whose redirect ends on the protected origin is never cached').to.equal(2);
    expect(count('preview/about'), 'the protected origin is asked on every run (twice: the link and the redirect into it)').to.be.at.least(4);

    // Another caller, no header: the preview's /about answers it 401, directly and through the
    // redirect, not the 200 the protected checks saw.
    const other2 = await svc.newKey('business');
    const plain = await svc.call(`/api/deadlinks?url=${encodeURIComponent(other.url + '/public')}&mode=quick`, { headers: { 'x-api-key': other2 } });
    expect(plain.status, plain.text).to.equal(200);
    expect(plain.body.broken_links.map((l: { url: string; status: number }) => [l.url, l.status]).sort()).to.deep.equal(
      [
        [`${preview.url}/about`, 401],
        [`${other.url}/into-preview`, 401],
      ].sort(),
    );
  });
});
