import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { scenarioSite } from './fixture-site.js';

describe('GET /api/deadlinks, quick mode', () => {
  let svc: TestService;
  let fx: Awaited<ReturnType<typeof scenarioSite>>;
  let key: string;
  let report: any;

  before(async () => {
    svc = await startTestService({ FETCH_TIMEOUT_MS: '800' });
    key = await svc.newKey('business');
    fx = await scenarioSite();
    const r = await svc.call(`/api/deadlinks?mode=quick&url=${encodeURIComponent(fx.site.url + '/')}`, { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    report = r.body;
  });
  after(async () => {
    await fx?.close();
    await svc?.close();
  });

  it('on the scenario page, reports exactly the broken links with their kinds', () => {
    const got = Object.fromEntries(report.broken_links.map((i: any) => [i.url, i.kind]));
    expect(got).to.deep.equal(fx.quickBroken);
    expect(report.broken_count).to.equal(Object.keys(fx.quickBroken).length);
    expect(report.pages_crawled).to.equal(1);
    expect(report).not.to.have.property('pass');
    expect(report).not.to.have.property('_notice');
  });

  it('counts each link once, skips mailto/tel/javascript, and computes the health score', () => {
    // 21 distinct http(s) URLs: /about (three times, two with fragments) counts once; `#top` is the page itself.
    // The two fragments judged against /about (#team found, #nope missing) are links checked of their own.
    expect(report.total_links_checked).to.equal(23);
    expect(report.summary.internal_links + report.summary.external_links).to.equal(report.total_links_checked);
    expect(report.summary.skipped_links).to.equal(3);
    const expected = Math.round(1000 * (1 - report.broken_count / report.total_links_checked)) / 10;
    expect(report.summary.health_score).to.equal(expected);
    expect(report.summary.broken_images).to.equal(1);
  });

  it('records redirect chains hop by hop and counts working redirects', () => {
    const ok = report.redirects.find((i: any) => i.url.endsWith('/redirect-ok'));
    expect(ok.kind).to.equal('redirect');
    expect(ok.redirect_chain.map((h: any) => [h.status, new URL(h.location).pathname])).to.deep.equal([[301, '/r2'], [302, '/about']]);
    expect(ok.status).to.equal(200);
    expect(report.summary.redirects_found).to.equal(1);
    const to404 = report.broken_links.find((i: any) => i.url.endsWith('/redirect-404'));
    expect(to404.status).to.equal(404);
    expect(to404.redirect_chain).to.have.length(1);
    const loop = report.broken_links.find((i: any) => i.url.endsWith('/loop-a'));
    expect(loop.redirect_chain.map((h: any) => new URL(h.location).pathname)).to.deep.equal(['/loop-b', '/loop-a']);
  });

  it('lists bot-protected links separately, not as broken', () => {
    expect(report.bot_blocked.map((i: any) => [new URL(i.url).pathname, i.status])).to.deep.equal([['/cf', 403], ['/li', 999]]);
    expect(report.summary.bot_blocked).to.equal(2);
  });

  it('falls back to GET when HEAD is refused and retries after 429 Retry-After', () => {
    const all = [...report.broken_links, ...report.warnings].map((i: any) => new URL(i.url).pathname);
    expect(all).not.to.include('/head-405');
    expect(all).not.to.include('/rate');
    expect(fx.site.hits.filter((h) => h === 'GET /head-405')).to.have.length(1);
    expect(fx.site.hits.filter((h) => h.endsWith(' /rate'))).to.have.length(2);
  });

  it('warns about a missing fragment on a same-site page, without counting it broken', () => {
    expect(report.warnings.map((i: any) => [new URL(i.url).pathname + new URL(i.url).hash, i.kind])).to.deep.equal([['/about#nope', 'missing_fragment']]);
  });

  it('items name where they were found, their type and resource', () => {
    const img = report.broken_links.find((i: any) => i.url.endsWith('/img/missing.png'));
    expect(img).to.include({ type: 'internal', resource: 'image', is_image: true });
    expect(img.found_on).to.deep.equal([fx.site.url + '/']);
    const ext = report.broken_links.find((i: any) => i.url === `${fx.ext.url}/nope`);
    expect(ext.type).to.equal('external');
    const dns = report.broken_links.find((i: any) => i.kind === 'dns');
    expect(dns.status).to.equal(null);
    expect(dns.error, 'the resolver\'s own code').to.match(/ENOTFOUND|EAI_AGAIN|EAI_NONAME/);
  });

  it('gates on threshold and max_broken, and sets pass only when asked', async () => {
    const q = (extra: string) => svc.call(`/api/deadlinks?mode=quick&url=${encodeURIComponent(fx.site.url + '/')}${extra}`, { headers: { 'x-api-key': key } });
    const score = report.summary.health_score;
    const passT = await q(`&threshold=${Math.floor(score)}`);
    expect(passT.body.pass).to.equal(true);
    const failT = await q(`&threshold=${Math.ceil(score) + 1}`);
    expect(failT.body.pass).to.equal(false);
    expect((await q(`&max_broken=${report.broken_count}`)).body.pass).to.equal(true);
    const both = await q(`&max_broken=${report.broken_count - 1}&threshold=0`);
    expect(both.body.pass).to.equal(false);
    expect(both.body.gate).to.deep.equal({ threshold: 0, max_broken: report.broken_count - 1 });
  });

  it('takes a decimal threshold (99.5): pass when health_score >= threshold, the gate echoed as given, out of range a 400', async () => {
    const q = (extra: string) => svc.call(`/api/deadlinks?mode=quick&url=${encodeURIComponent(fx.site.url + '/')}${extra}`, { headers: { 'x-api-key': key } });
    const score: number = report.summary.health_score; // one decimal
    const at = await q(`&threshold=${score}`);
    expect(at.body).to.include({ pass: true });
    const justAbove = (score + 0.05).toFixed(2);
    const above = await q(`&threshold=${justAbove}`);
    expect(above.body.pass).to.equal(false);
    expect(above.body.gate).to.deep.equal({ threshold: Number(justAbove) });
    for (const bad of ['100.5', '-0.1', 'high']) {
      const r = await q(`&threshold=${bad}`);
      expect(r.status, bad).to.equal(400);
      expect(r.body.error, bad).to.match(/^threshold must be/);
    }
  });

  it('refuses a private start URL with 400 when private targets are not allowed', async () => {
    const strict = await startTestService({ ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const k = await strict.newKey('business');
      const r = await strict.call(`/api/deadlinks?mode=quick&url=${encodeURIComponent(fx.site.url)}`, { headers: { 'x-api-key': k } });
      expect(r.status).to.equal(400);
      expect(r.body.error).to.match(/not an allowed target/);
    } finally {
      await strict.close();
    }
  });

  it('rejects bad parameters naming them', async () => {
    const r1 = await svc.call('/api/deadlinks?mode=quick', { headers: { 'x-api-key': key } });
    expect(r1.status).to.equal(400);
    expect(r1.body.error).to.match(/url is required unless github is given/);
    const r2 = await svc.call(`/api/deadlinks?url=${encodeURIComponent(fx.site.url)}&max_pages=51`, { headers: { 'x-api-key': key } });
    expect(r2.body.error).to.equal('max_pages must be an integer between 1 and 50, got "51"');
  });
});
