import { expect } from 'chai';
import { freePort, startTestService, type TestService } from '../support/service.js';
import { html, startFixtureSite } from './support/fixture-site.js';
import { goodSeoPage, poorSeoPage, sitemapXml, spaShell } from './seo-fixtures.js';

describe('GET /api/seo', function () {
  let svc: TestService;
  let site: Awaited<ReturnType<typeof startFixtureSite>>;
  let bare: Awaited<ReturnType<typeof startFixtureSite>>;
  let mapped: Awaited<ReturnType<typeof startFixtureSite>>;
  let key: string;

  before(async function () {
    site = await startFixtureSite({
      '/good': (req, res) => html(goodSeoPage(`http://${req.headers.host}`))(req, res),
      '/spa': html(spaShell),
      '/robots.txt': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\nSitemap: http://${req.headers.host}/sitemap.xml\n`),
      '/sitemap.xml': (req, res) => res.writeHead(200, { 'content-type': 'application/xml' }).end(sitemapXml(`http://${req.headers.host}`)),
    });
    bare = await startFixtureSite({
      '/poor': html(poorSeoPage, { 'x-robots-tag': 'noindex' }),
      '/gone': html('<html><head><title>Missing page here</title></head></html>', {}, 404),
      '/data.json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'),
    });
    // Sitemap lines as found in the wild: one commented out, one relative (invalid), the real one with a comment.
    mapped = await startFixtureSite({
      '/good': (req, res) => html(goodSeoPage(`http://${req.headers.host}`))(req, res),
      '/robots.txt': (req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`# Sitemap: http://${req.headers.host}/old.xml\nUser-agent: *\nAllow: /\nSitemap: /relative.xml\nSITEMAP: http://${req.headers.host}/maps/all.xml # the real one\n`),
      '/maps/all.xml': (req, res) => res.writeHead(200, { 'content-type': 'application/xml' }).end(sitemapXml(`http://${req.headers.host}`)),
    });
    svc = await startTestService();
    key = await svc.newKey('business');
  });

  after(async function () {
    await svc?.close();
    await site?.close();
    await bare?.close();
    await mapped?.close();
  });

  const audit = (url: string, extra = '') => svc.call(`/api/seo?url=${encodeURIComponent(url)}${extra}`, { headers: { 'X-API-Key': key } });

  it('on a well-made page, passes every check but HTTPS and scores 94', async function () {
    const r = await audit(`${site.url}/good`);

    expect(r.status, r.text).to.equal(200);
    const failed = Object.entries(r.body.checks as Record<string, { pass: boolean }>).filter(([, c]) => !c.pass).map(([k]) => k);
    expect(failed).to.deep.equal(['https']);
    expect(r.body.score).to.equal(94);
    expect(r.body.recommendations).to.deep.equal(['Serve the page over HTTPS and redirect HTTP to it.']);
    expect(r.body.checks.title).to.include({ pass: true, value: 'Handmade Oak Furniture | Fixture Workshop', source: 'lighthouse', lighthouse_audit: 'document-title' });
    expect(r.body.checks.open_graph).to.include({ source: 'sitelens', lighthouse_audit: null });
    expect(r.body.checks.sitemap.value).to.deep.equal({ url: `${site.url}/sitemap.xml`, status: 200 });
    expect(r.body.checks.robots_txt).to.deep.include({ pass: true, applicable: true, items: [] });
    expect(r.body).to.include({ url: `${site.url}/good`, final_url: `${site.url}/good`, status_code: 200, rendered: false });
  });

  it('reads robots.txt Sitemap lines as crawlers do: comments and relative URLs skipped, the first fetchable one checked', async function () {
    const r = await audit(`${mapped.url}/good`);

    expect(r.status, r.text).to.equal(200);
    expect(r.body.checks.sitemap).to.deep.include({ pass: true, value: { url: `${mapped.url}/maps/all.xml`, status: 200 } });
    // Lighthouse's robots-txt audit still names the line a crawler cannot use.
    expect(r.body.checks.robots_txt.pass).to.equal(false);
    expect(r.body.checks.robots_txt.items.map((i: { reason: string; robots_txt: { line: number } }) => [i.robots_txt.line, i.reason])).to.deep.equal([[4, 'Invalid sitemap URL']]);
    expect(r.body.checks.robots_txt.value.sitemaps).to.deep.equal([`${mapped.url}/maps/all.xml`]);
  });

  it('on a poor page, fails each named check, names the failing elements and orders recommendations heaviest first', async function () {
    const r = await audit(`${bare.url}/poor`);

    expect(r.status, r.text).to.equal(200);
    const c = r.body.checks;
    expect(c.robots_directives.pass).to.equal(false);
    expect(c.robots_directives.value).to.deep.include({ meta_robots: 'noindex, nofollow', x_robots_tag: 'noindex' });
    expect(c.robots_directives.items).to.deep.equal([
      { reason: '<meta name="robots"> says "noindex, nofollow"', element: { selector: 'head > meta', snippet: '<meta name="robots" content="noindex, nofollow">' } },
      { reason: 'the X-Robots-Tag header blocks indexing', header: 'x-robots-tag: noindex' },
    ]);
    expect(c.title).to.include({ pass: true, value: 'Hi' });
    expect(c.title_length).to.include({ pass: false, value: 2 });
    expect(c.meta_description).to.include({ pass: false, value: null });
    expect(c.meta_description_length).to.include({ pass: true, applicable: false });
    expect(c.h1.items.map((i: { element: { snippet: string } }) => i.element.snippet)).to.deep.equal(['<h1>', '<h1>']);
    expect(c.heading_hierarchy.value.skipped).to.deep.equal(['h1 → h4']);
    expect(c.image_alt.value).to.include({ total: 2, missing_alt: 2 });
    expect(c.image_alt.items.map((i: { element: { snippet: string } }) => i.element.snippet)).to.deep.equal(['<img src="/a.jpg">', '<img src="/b.jpg">']);
    expect(c.canonical.message).to.equal('Is not an absolute URL (/poor)');
    expect(c.open_graph.message).to.equal('missing og:title, og:description, og:image, og:url');
    expect(c.twitter_card.pass).to.equal(false);
    expect(c.lang.pass).to.equal(false);
    expect(c.viewport.pass).to.equal(false);
    expect(c.robots_txt).to.include({ pass: true, applicable: false });
    expect(c.sitemap.pass).to.equal(false);
    expect(c.structured_data.message).to.equal('1 of 1 JSON-LD block(s) do not parse');
    expect(c.link_text.value).to.deep.equal({ vague_links: 2, examples: ['click here', 'read more'] });
    expect(c.http_status.pass).to.equal(true);
    expect(c.page_weight.pass).to.equal(true);
    expect(r.body.score).to.equal(33);
    const recs: string[] = r.body.recommendations;
    expect(recs[0]).to.match(/^Remove the noindex\/none directives/);
    expect(recs).to.include('Add a lang attribute to <html> (e.g. lang="en") for search engines and screen readers.');
    expect(recs).to.have.length(15);
  });

  it('on a page answering 404, fails the HTTP status check first', async function () {
    const r = await audit(`${bare.url}/gone`);

    expect(r.status, r.text).to.equal(200);
    expect(r.body.checks.http_status).to.include({ pass: false, value: 404 });
    expect(r.body.recommendations[0]).to.match(/HTTP 200 \(it answered 404\)/);
  });

  it('on a URL that is not HTML, answers 400 naming its content type', async function () {
    const r = await audit(`${bare.url}/data.json`);
    expect(r.status).to.equal(400);
    expect(r.body.error).to.equal('url must point to an HTML page; it answered Content-Type application/json');
  });

  it('when the port is closed, answers 502 naming the target and the refusal', async function () {
    const target = `127.0.0.1:${await freePort()}`;
    const r = await audit(`http://${target}/`);
    expect(r.status, r.text).to.equal(502);
    expect(r.body.error).to.equal(`${target} is unreachable: the connection was refused (connect ECONNREFUSED)`);
  });

  it('with render=true on a single-page app, audits the title and h1 set by JavaScript', async function () {
    const plain = await audit(`${site.url}/spa`);
    const rendered = await audit(`${site.url}/spa`, '&render=true');

    expect(plain.body.checks.title.pass).to.equal(false);
    expect(rendered.status, rendered.text).to.equal(200);
    expect(rendered.body.rendered).to.equal(true);
    expect(rendered.body.checks.title).to.include({ pass: true, value: 'Rendered by JavaScript on the client' });
    expect(rendered.body.checks.h1).to.deep.include({ pass: true, value: ['Client-side heading'] });
  });

  it('without a key, is limited to one audit per 5 minutes', async function () {
    const first = await svc.call(`/api/seo?url=${encodeURIComponent(`${site.url}/good`)}`);
    const second = await svc.call(`/api/seo?url=${encodeURIComponent(`${site.url}/good`)}`);

    expect(first.status).to.equal(200);
    expect(first.body._notice).to.be.a('string');
    expect(second.status).to.equal(429);
  });
});
