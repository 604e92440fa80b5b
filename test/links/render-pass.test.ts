import type http from 'node:http';
import { expect } from 'chai';
import { needsBrowser } from '../../server/links/needs-browser.js';
import { startTestService, type TestService } from '../support/service.js';
import { html, serve, type FixtureServer, type Handler } from './fixture-site.js';

/** A response of `type`, recording whether a browser (Chrome's user agent) asked for it. */
const asset = (type: string, seen: string[], status = 200): Handler => (req: http.IncomingMessage, res) => {
  if (/Chrome\//.test(req.headers['user-agent'] ?? '')) seen.push(req.url ?? '');
  res.writeHead(status, { 'content-type': type });
  res.end(req.method === 'HEAD' ? undefined : type === 'text/javascript' ? SCRIPT : '');
};

/** Inserts a link and sets the id `/scripted#made` points at, once the DOM is parsed. */
const SCRIPT = `document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('slot').id = 'made';
  document.body.insertAdjacentHTML('beforeend', '<a href="/inserted-gone">inserted</a>');
});`;

describe('GET /api/deadlinks, full mode: the render pass', () => {
  let svc: TestService;
  let site: FixtureServer;
  let key: string;
  const browserAsked: string[] = [];
  const get = (q: string) => svc.call(`/api/deadlinks?${q}`, { headers: { 'x-api-key': key } });

  before(async () => {
    site = await serve({
      '/': html(`
        <link rel="stylesheet" href="/site.css">
        <a href="/scripted#made">made by script</a> <a href="/scripted#never">never made</a> <a href="/plain">plain</a>
        <img src="/img/ok.png"> <img src="/img/missing.png">`),
      '/scripted': html(`
        <link rel="stylesheet" href="/site.css">
        <div id="slot"></div> <img src="/img/ok.png"> <video src="/clip.mp4"></video>
        <script src="/insert.js"></script>`),
      '/plain': html(`<a href="/plain-gone">gone</a> <img src="/img/missing.png">`),
      '/remover': html(`<a href="/removed">removed</a> <a href="/kept">kept</a>
        <script>document.querySelector('a[href="/removed"]').remove()</script>`),
      '/removed': html('<a href="/removed-child-gone">gone</a>'),
      '/kept': html('<p>kept</p>'),
      '/site.css': asset('text/css', browserAsked),
      '/insert.js': asset('text/javascript', browserAsked),
      '/img/ok.png': asset('image/png', browserAsked),
      '/img/missing.png': asset('image/png', browserAsked, 404),
      '/clip.mp4': asset('video/mp4', browserAsked),
    });
    svc = await startTestService({ LINK_CACHE_OK_SECONDS: '0' });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await site?.close();
  });

  it('finds what scripts add, renders only the page with a script, and the browser loads nothing itself (images checked over HTTP, scripts from the crawl)', async function () {
    this.timeout(90_000);
    const rendered = await get(`url=${encodeURIComponent(site.url + '/')}&max_pages=10`);
    expect(rendered.status, rendered.text).to.equal(200);
    const plain = await get(`render=false&url=${encodeURIComponent(site.url + '/')}&max_pages=10`);
    const urls = (items: any[]) => items.map((i: any) => i.url.slice(site.url.length)).sort();

    // The script's link is found; everything the plain crawl finds is found too, nothing else.
    expect(urls(plain.body.broken_links)).to.deep.equal(['/img/missing.png', '/plain-gone']);
    expect(urls(rendered.body.broken_links)).to.deep.equal(['/img/missing.png', '/inserted-gone', '/plain-gone']);
    expect(rendered.body.total_links_checked).to.equal(plain.body.total_links_checked + 1);
    // The id the script set counts for the fragment; the one nobody sets is still missing.
    const missing = (r: any) => urls(r.body.warnings.filter((w: any) => w.kind === 'missing_fragment'));
    expect(missing(plain)).to.deep.equal(['/scripted#made', '/scripted#never']);
    expect(missing(rendered)).to.deep.equal(['/scripted#never']);
    // / and /plain have no script: their HTML is their DOM. Only /scripted went to the browser.
    expect(rendered.body.pages_crawled).to.equal(3);
    expect(rendered.body.summary.rendered_pages).to.equal(1);
    // The browser ran the page's script and style sheet (the inserted link is found) but loaded
    // nothing itself: images and media were checked over HTTP, the script and style sheet were
    // the crawl's copies, fetched once.
    expect(browserAsked).to.deep.equal([]);
    expect(site.hits.filter((h) => h === 'GET /insert.js')).to.have.length(1);
    // The page itself was fetched once per crawl: the browser got the crawl's copy.
    expect(site.hits.filter((h) => h === 'GET /scripted')).to.have.length(2);
  });

  it('adds nothing from a link a script removed, though the page it pointed to was fetched ahead', async function () {
    this.timeout(90_000);
    const r = await get(`url=${encodeURIComponent(site.url + '/remover')}&max_pages=10`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.pages_crawled).to.equal(2); // /remover and /kept
    expect(r.body.total_links_checked).to.equal(1);
    expect(r.body.broken_links).to.deep.equal([]);
    // While /remover rendered, the pages its HTML links to were loaded ahead; /removed counted for nothing.
    expect(site.hits).to.include('GET /removed');
    expect(site.hits).not.to.include('HEAD /removed-child-gone');
    expect(site.hits).not.to.include('GET /removed-child-gone');
  });
});

describe('GET /api/deadlinks, full mode: pages rendered one after another in one tab', () => {
  let svc: TestService;
  let site: FixtureServer;

  /** Shows a link on a first visit only, as a cookie or storage banner does. */
  const firstVisit = html(`<script>
    if (!localStorage.getItem('seen') && !sessionStorage.getItem('seen') && !document.cookie.includes('seen=1')) {
      document.write('<a href="/first-visit-gone">welcome</a>');
    }
    localStorage.setItem('seen', '1'); sessionStorage.setItem('seen', '1'); document.cookie = 'seen=1; path=/';
  </script>`);

  before(async () => {
    const pages: Record<string, string> = { '/': html('<a href="/s1">1</a> <a href="/s2">2</a> <a href="/s3">3</a>') + firstVisit };
    for (const p of ['/s1', '/s2', '/s3']) pages[p] = firstVisit;
    site = await serve(pages);
    // One page at a time: every page after the first reuses the tab.
    svc = await startTestService({ LINK_CACHE_OK_SECONDS: '0', BROWSER_CONCURRENCY: '1' });
  });
  after(async () => {
    await svc?.close();
    await site?.close();
  });

  it('renders each page as in a fresh tab: no cookie or storage of the page before', async function () {
    this.timeout(90_000);
    const key = await svc.newKey('business');
    const r = await svc.call(`/api/deadlinks?url=${encodeURIComponent(site.url + '/')}`, { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.summary.rendered_pages).to.equal(4);
    const banner = r.body.broken_links.find((i: any) => i.url === `${site.url}/first-visit-gone`);
    expect([...banner.found_on].sort()).to.deep.equal(['/', '/s1', '/s2', '/s3'].map((p) => site.url + p));
  });
});

describe('GET /api/deadlinks, full mode: work done while a page renders', () => {
  let svc: TestService;
  let site: FixtureServer;
  const held: Array<() => void> = [];
  let imageChecked = false;

  before(async () => {
    // /shared.js answers only once the image of the pages has been checked: a crawl that waited
    // for the renders before checking a page's links would wait for it until the budget ends.
    const shared: Handler = (req, res) => {
      const answer = () => {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(req.method === 'HEAD' ? undefined : SHARED_SCRIPT);
      };
      if (imageChecked) answer();
      else held.push(answer);
    };
    const image: Handler = (_req, res) => {
      imageChecked = true;
      for (const answer of held.splice(0)) answer();
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end();
    };
    const scripted = (n: number) => html(`<img src="/held-image.png"> <a href="/b${n}">next</a> <script src="/shared.js"></script>`);
    site = await serve({ '/': scripted(1), '/b1': scripted(2), '/b2': html('<p>end</p>'), '/shared.js': shared, '/held-image.png': image });
    svc = await startTestService({ LINK_CACHE_OK_SECONDS: '0' });
  });
  after(async () => {
    for (const answer of held.splice(0)) answer();
    await svc?.close();
    await site?.close();
  });

  it('checks the links of a page while it renders, and fetches a script its pages share once for all their renders', async function () {
    this.timeout(60_000);
    const key = await svc.newKey('business');
    const r = await svc.call(`/api/deadlinks?max_duration=20&url=${encodeURIComponent(site.url + '/')}`, { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.timed_out).not.to.equal(true);
    expect(r.body.summary.rendered_pages).to.equal(2);
    // Both renders ran the script: its link is found on both pages.
    const inserted = r.body.broken_links.find((i: any) => i.url === `${site.url}/shared-gone`);
    expect([...inserted.found_on].sort()).to.deep.equal([`${site.url}/`, `${site.url}/b1`]);
    expect(site.hits.filter((h) => h === 'GET /shared.js')).to.have.length(1);
  });
});

/** Inserts a broken link wherever it runs. */
const SHARED_SCRIPT = `document.body.insertAdjacentHTML('beforeend', '<a href="/shared-gone">gone</a>');`;

describe('needsBrowser', () => {
  it('is false for a page without scripts, frames or handlers (a meta refresh included)', () => {
    const page = `<!doctype html><meta http-equiv="refresh" content="0; url=/x"><script type="application/ld+json">{}</script>
      <a href="/a" id="b">a</a><img src="/i.png" alt="javascript is fun"><style>body{}</style>`;
    expect(needsBrowser(page)).to.equal(false);
  });

  for (const [what, page] of [
    ['a classic script', '<p>x</p><script>1</script>'],
    ['a module script', '<script type="module" src="/m.js"></script>'],
    ['an event handler attribute', '<body onload="go()"><p>x</p></body>'],
    ['a javascript: URL', '<a href=" JavaScript:void(0)">x</a>'],
    ['an iframe', '<iframe srcdoc="<p>x</p>"></iframe>'],
    ['a declarative shadow root', '<div><template shadowrootmode="open"><a href="/x">x</a></template></div>'],
  ]) {
    it(`is true for a page with ${what}`, () => expect(needsBrowser(page)).to.equal(true));
  }
});
