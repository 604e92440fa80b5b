import type http from 'node:http';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { html, serve, status, type FixtureServer } from './fixture-site.js';

const send = (body: Buffer | string, contentType: string) => (req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': contentType });
  res.end(req.method === 'HEAD' ? undefined : body);
};
const ok = status(200);

describe('GET /api/deadlinks on real-world HTML', () => {
  let svc: TestService;
  let site: FixtureServer;
  let key: string;
  const queries: string[] = [];
  const get = (q: string) => svc.call(`/api/deadlinks?${q}`, { headers: { 'x-api-key': key } });

  before(async () => {
    const latin1 = Buffer.concat([
      Buffer.from('<!doctype html><title>x</title><a href="/caf'),
      Buffer.from([0xe9]),
      Buffer.from('.html">cafe</a> <a href="/search?q=caf'),
      Buffer.from([0xe9]),
      Buffer.from('">search</a>'),
    ]);
    const sjis = Buffer.concat([
      Buffer.from('<html><head><meta charset="shift_jis"></head><body><a href="/'),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b]), // 日本 in Shift_JIS
      Buffer.from('.html">nihon</a></body></html>'),
    ]);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<a href="/über.html">u</a>')]);
    site = await serve({
      '/': html(`
        <!-- <a href="/in-comment">commented out</a> -->
        <img srcset="data:image/png;base64,iVBORw0KGgo=,AAAA 1x, /cdn/w_100,h_50/ok.jpg 2x, /cdn/w_200,h_90/gone.jpg 3x">
        <picture><source srcset="/cdn/c_fill,w_1/pic.webp"><img src="/ok.png"></picture>
        <style>@import "/imported.css"; .a { background: url('/bg-missing.png') } /* url(/css-comment.png) */</style>
        <div style="background-image: url(/inline-missing.png)"></div>
        <link rel="stylesheet" href="/site.css">
        <a href="/latin1.html">latin1</a> <a href="/sjis.html">sjis</a> <a href="/bom.html">bom</a>`),
      '/cdn/w_100,h_50/ok.jpg': ok,
      '/cdn/c_fill,w_1/pic.webp': ok,
      '/ok.png': ok,
      '/imported.css': send('.i { background: url(imported-missing.png) }', 'text/css'),
      '/site.css': send('@import url("deep.css");\n.s { background: url(/ok.png) }\n.t { background: url("from-css-missing.png") }', 'text/css'),
      '/deep.css': send('.d { background: url(deep-missing.png) }', 'text/css'),
      '/latin1.html': send(latin1, 'text/html; charset=windows-1252'),
      '/sjis.html': send(sjis, 'text/html'),
      '/bom.html': send(bom, 'text/html; charset=windows-1252'),
      '/caf%C3%A9.html': html('cafe'),
      '/search': (req, res) => {
        queries.push(req.url ?? '');
        ok(req, res);
      },
      '/%E6%97%A5%E6%9C%AC.html': html('nihon'),
      '/%C3%BCber.html': html('uber'),
    });
    svc = await startTestService({ LINK_CACHE_OK_SECONDS: '0' });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await site?.close();
  });

  it('reads srcset by the spec, CSS url() and @import (linked sheets followed), legacy charsets, and nothing in comments', async () => {
    const r = await get(`render=false&max_pages=5&url=${encodeURIComponent(site.url + '/')}`);
    expect(r.status, r.text).to.equal(200);
    const broken = r.body.broken_links.map((i: any) => i.url.slice(site.url.length)).sort();
    expect(broken).to.deep.equal([
      '/bg-missing.png',
      '/cdn/w_200,h_90/gone.jpg',
      '/deep-missing.png',
      '/from-css-missing.png',
      '/imported-missing.png',
      '/inline-missing.png',
    ]);
    const missingFromCss = r.body.broken_links.find((i: any) => i.url.endsWith('/from-css-missing.png'));
    expect(missingFromCss.found_on).to.deep.equal([`${site.url}/site.css`]);
    expect(site.hits).not.to.include('HEAD /in-comment');
    expect(site.hits.some((h) => h.includes('css-comment'))).to.equal(false);
    expect(site.hits.some((h) => h.includes('iVBOR'))).to.equal(false);
    // windows-1252 query bytes, as a browser sends them.
    expect(queries).to.include('/search?q=caf%E9');
  });

  it('exclude (repeated) skips matching links without fetching them; accept counts statuses as working', async () => {
    const before = site.hits.filter((h) => h.includes('missing')).length;
    const r = await get(`render=false&max_pages=5&url=${encodeURIComponent(site.url + '/')}&exclude=missing&exclude=${encodeURIComponent('/cdn/w_200')}`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.broken_links).to.deep.equal([]);
    expect(r.body.summary.skipped_links).to.be.at.least(6);
    expect(site.hits.filter((h) => h.includes('missing')).length).to.equal(before);
    const accepted = await get(`mode=quick&url=${encodeURIComponent(site.url + '/')}&accept=404,410`);
    expect(accepted.body.broken_count).to.equal(0);
    const bad = await get(`mode=quick&url=${encodeURIComponent(site.url + '/')}&accept=forbidden`);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.match(/^accept must be a comma list of HTTP status codes/);
    const backreference = await get(`mode=quick&url=${encodeURIComponent(site.url + '/')}&exclude=${encodeURIComponent('(a)\\1')}`);
    expect(backreference.status).to.equal(400);
    expect(backreference.body.error).to.match(/^exclude must be a valid RE2 regular expression, got "\(a\)\\\\1": invalid escape sequence/);
  });
});

describe('GET /api/deadlinks, full mode with rendering, on pages that move or never settle', () => {
  let svc: TestService;
  let site: FixtureServer;
  let key: string;
  const held: http.ServerResponse[] = [];
  const get = (q: string) => svc.call(`/api/deadlinks?${q}`, { headers: { 'x-api-key': key } });

  before(async () => {
    site = await serve({
      '/': html(`<script>location.replace('/landing')</script><p>moving</p>`),
      '/landing': html(`<a href="/landing-gone">gone</a> <a href="/refresh">refresh</a>`),
      '/refresh': html(`<meta http-equiv="refresh" content="0; url=/after-refresh"><p>moved</p>`),
      '/after-refresh': html(`<a href="/refresh-gone">gone too</a>`),
      '/busy': html(`
        <img src="/hang.png">
        <script>
          document.addEventListener('DOMContentLoaded', () => {
            const a = document.createElement('a'); a.href = '/busy-inserted-gone'; a.textContent = 'x'; document.body.append(a);
            setInterval(() => { document.body.dataset.tick = String(Date.now()); fetch('/poll').catch(() => {}); }, 50);
          });
        </script>`),
      '/poll': ok,
      '/hang.png': (_req, res) => {
        held.push(res); // never answered: the page's load event never fires
      },
    });
    svc = await startTestService({ LINK_CACHE_OK_SECONDS: '0', FETCH_TIMEOUT_MS: '3000' });
    key = await svc.newKey('business');
  });
  after(async () => {
    for (const res of held) res.destroy();
    await svc?.close();
    await site?.close();
  });

  it('reports an entry page that moves in the browser as a redirect and crawls where it went', async function () {
    this.timeout(120_000);
    const r = await get(`max_pages=5&url=${encodeURIComponent(site.url + '/')}`);
    expect(r.status, r.text).to.equal(200);
    const broken = r.body.broken_links.map((i: any) => i.url.slice(site.url.length)).sort();
    expect(broken).to.deep.equal(['/landing-gone', '/refresh-gone']);
    const refresh = r.body.redirects.find((i: any) => i.url === `${site.url}/refresh`);
    expect(refresh.redirect_chain).to.deep.equal([{ url: `${site.url}/refresh`, status: 200, location: `${site.url}/after-refresh`, client: 'meta_refresh' }]);
    expect(refresh.final_url).to.equal(`${site.url}/after-refresh`);
    const start = r.body.redirects.find((i: any) => i.url === `${site.url}/`);
    expect(start?.redirect_chain.at(-1)).to.deep.include({ location: `${site.url}/landing`, client: 'script' });
  });

  it('takes the DOM of a page that never finishes loading when its wait ends', async function () {
    this.timeout(120_000);
    const r = await get(`max_pages=1&max_duration=40&url=${encodeURIComponent(site.url + '/busy')}`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.summary.rendered_pages).to.equal(1);
    expect(r.body.broken_links.map((i: any) => i.url)).to.include(`${site.url}/busy-inserted-gone`);
  });
});
