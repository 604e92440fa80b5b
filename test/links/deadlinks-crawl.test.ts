import { expect } from 'chai';
import { createSafeHttp } from '../../server/net/safe-http.js';
import { createTargetPolicy } from '../../server/net/target-policy.js';
import { checkSite, linkNet } from '../../server/links/site-check.js';
import { startTestService, type TestService } from '../support/service.js';
import { html, scenarioSite, serve } from './fixture-site.js';

const brokenOf = (report: any) => Object.fromEntries(report.broken_links.map((i: any) => [i.url, i.kind]));

describe('GET /api/deadlinks, full mode', () => {
  let svc: TestService;
  let fx: Awaited<ReturnType<typeof scenarioSite>>;
  let key: string;
  const get = (q: string, init: RequestInit = {}) => svc.call(`/api/deadlinks?${q}`, { ...init, headers: { 'x-api-key': key, ...(init.headers ?? {}) } });

  before(async () => {
    svc = await startTestService({ FETCH_TIMEOUT_MS: '800', LINK_CACHE_OK_SECONDS: '0' });
    key = await svc.newKey('business');
    fx = await scenarioSite();
  });
  after(async () => {
    await fx?.close();
    await svc?.close();
  });

  it('without rendering, crawls same-site pages and finds relative links of extension-less pages and <base href> targets', async () => {
    const r = await get(`render=false&url=${encodeURIComponent(fx.site.url + '/')}`);
    expect(r.status, r.text).to.equal(200);
    expect(brokenOf(r.body)).to.deep.equal(fx.crawlBroken);
    // /, /about, /docs/guide, /docs/intro, /base/page, /other/target, /head-405, /rate, /r2 landing on /about…
    const paths = fx.site.hits.filter((h) => h.startsWith('GET ')).map((h) => h.slice(4));
    expect(paths).to.include.members(['/docs/intro', '/other/target']);
    expect(paths).not.to.include('/base/target');
    const missingRel = r.body.broken_links.find((i: any) => i.url.endsWith('/missing-rel'));
    expect(missingRel.found_on).to.deep.equal([`${fx.site.url}/docs/guide`]);
    const about = [...r.body.warnings].find((i: any) => i.url.endsWith('/about#nope'));
    expect(about.found_on).to.deep.equal([`${fx.site.url}/`]);
  });

  it('with check_only=external, still crawls the internal pages and reports only the external links found on all of them', async () => {
    const r = await get(`render=false&check_only=external&url=${encodeURIComponent(fx.site.url + '/')}`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.broken_links.every((i: any) => i.type === 'external')).to.equal(true);
    expect(r.body.summary.internal_links).to.equal(0);
    // ext/deep-gone is only on /docs/guide, a page below the start page.
    expect(Object.keys(brokenOf(r.body)).sort()).to.deep.equal(Object.keys(fx.crawlBroken).filter((u) => !u.startsWith(fx.site.url)).sort());
    expect(r.body.broken_links.find((i: any) => i.url.endsWith('/deep-gone')).found_on).to.deep.equal([`${fx.site.url}/docs/guide`]);
    expect(r.body.pages_crawled).to.be.greaterThan(1);
    expect(r.body.summary.skipped_links).to.be.greaterThan(0); // the internal links, counted as not checked by rule
  });

  it('rendering in Chromium, also finds the link inserted by a script', async function () {
    this.timeout(90_000);
    const r = await get(`url=${encodeURIComponent(fx.site.url + '/')}&max_pages=10`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.summary.rendered_pages).to.be.greaterThan(0);
    expect(brokenOf(r.body)).to.deep.equal(fx.renderedBroken);
  });

  it('with max_pages, stops crawling at the cap', async () => {
    const r = await get(`render=false&max_pages=1&url=${encodeURIComponent(fx.site.url + '/')}`);
    expect(r.body.pages_crawled).to.equal(1);
  });

  it('with Accept: text/event-stream, streams progress events and then the report', async () => {
    const r = await get(`render=false&format=csv&url=${encodeURIComponent(fx.site.url + '/')}`, { headers: { accept: 'text/event-stream' } });
    expect(r.headers.get('content-type')).to.match(/^text\/event-stream/);
    const events = r.text
      .split('\n\n')
      .filter((b) => b.startsWith('event:'))
      .map((b) => {
        const [ev, data] = b.split('\n');
        return { event: ev.slice(7), data: JSON.parse(data.slice(6)) };
      });
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length).to.be.greaterThan(0);
    expect(progress.at(-1)?.data).to.include.keys('pages_crawled', 'links_checked', 'links_found');
    const checked = progress.map((p) => p.data.links_checked);
    expect(checked).to.deep.equal([...checked].sort((a, b) => a - b));
    const report = events.find((e) => e.event === 'report')?.data;
    expect(brokenOf(report)).to.deep.equal(fx.crawlBroken);
    expect(events.at(-1)?.event).to.equal('output');
    expect(events.at(-1)?.data.content).to.match(/^url,status,kind,found_on,file,line,column\r\n/);
  });

  it('a crawl that fails after the stream started ends it with an error event: the error answer\'s body, status and code', async () => {
    const r = await get(`render=false&url=${encodeURIComponent('http://127.0.0.1:1/')}`, { headers: { accept: 'text/event-stream' } });
    expect(r.headers.get('content-type')).to.match(/^text\/event-stream/);
    const blocks = r.text.split('\n\n').filter((b) => b.startsWith('event:'));
    const last = blocks.at(-1)!.split('\n');
    expect(last[0]).to.equal('event: error');
    const data = JSON.parse(last[1].slice(6));
    expect(data).to.include({ status: 502, code: 'target_unreachable' });
    expect(data.error, 'the failure\'s kind in the message').to.match(/^url could not be reached \(refused\): /);
  });

  it('streamed broken_so_far counts as the report does: a status in accept is not broken', async () => {
    const streamed = async (extra: string) => {
      const r = await get(`render=false${extra}&url=${encodeURIComponent(fx.site.url + '/')}`, { headers: { accept: 'text/event-stream' } });
      const events = r.text
        .split('\n\n')
        .filter((b) => b.startsWith('event:'))
        .map((b) => ({ event: b.split('\n')[0].slice(7), data: JSON.parse(b.split('\n')[1].slice(6)) }));
      return { last: events.filter((e) => e.event === 'progress').at(-1)?.data, report: events.find((e) => e.event === 'report')?.data };
    };
    const plain = await streamed('');
    const accepting = await streamed('&accept=404');
    expect(plain.last.broken_so_far).to.equal(plain.report.broken_count);
    expect(accepting.report.broken_count, 'the fixture has a 404 to accept').to.be.below(plain.report.broken_count);
    expect(accepting.last.broken_so_far).to.equal(accepting.report.broken_count);
  });
});

describe('checkSite, when max_duration is exceeded', () => {
  it('stops at its budget while pages are still unanswered and returns what was found with timed_out', async () => {
    // The slow pages answer only once the check has returned: a check that waited for them
    // would end at their 10 s request timeout, with them broken.
    const unanswered: Array<() => void> = [];
    const held = (_req: unknown, res: any) => unanswered.push(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>x</p>'));
    const routes: Record<string, any> = { '/': html(Array.from({ length: 30 }, (_, i) => `<a href="/p${i}">p</a>`).join('') + '<img src="/missing.png">') };
    for (let i = 0; i < 30; i++) routes[`/p${i}`] = i < 5 ? html('<p>fast</p>') : held;
    const site = await serve(routes);
    const http = createSafeHttp({ policy: createTargetPolicy('true') });
    try {
      const report = await checkSite(
        { url: site.url + '/', mode: 'full', maxPages: 50, maxDurationMs: 1500, render: false, fragments: 'warn', gate: { maxBroken: 0 } },
        { ...linkNet(http), timeoutMs: 10_000, hostConcurrency: 64 },
      );
      expect(unanswered.length, 'pages still waiting for their answer when the report came').to.be.greaterThan(0);
      expect(report.timed_out).to.equal(true);
      expect(report.broken_links.map((i) => new URL(i.url).pathname)).to.deep.equal(['/missing.png']);
      expect(report.pages_crawled).to.be.at.least(1);
      expect(report.pass).to.equal(false);
    } finally {
      for (const answer of unanswered) answer();
      await http.close();
      await site.close();
    }
  });
});
