import { expect } from 'chai';
import { html, serve, status, type FixtureServer } from '../links/fixture-site.js';
import { startTestService, type TestService } from '../support/service.js';
import { readEvents } from '../support/event-stream.js';

/**
 * A small site whose findings depend on rendering (a link its script inserts) and whose
 * external links live on a server of their own, so the requests they get can be counted.
 */
async function linkSite(external: string) {
  return serve({
    '/': html(`
      <a href="/about">about</a> <a href="/gone">gone</a>
      <a href="${external}/ok">external ok</a> <a href="${external}/missing">external 404</a>
      <script>document.addEventListener('DOMContentLoaded', () => document.body.insertAdjacentHTML('beforeend', '<a href="/js-broken">js</a>'));</script>
    `),
    '/about': html('<a href="/">home</a> <a href="/about/old">old</a>'),
    '/gone': status(410),
  });
}

describe('POST /api/compare, links: the dead-link checker as GET /api/deadlinks runs it', function () {
  this.timeout(120_000);
  let svc: TestService;
  let external: FixtureServer;
  let production: FixtureServer;
  let twin: FixtureServer;
  let key: string;
  let deadlinks: any;
  let linksRow: any;
  let externalHitsBefore: string[];
  let externalHitsAfter: string[];

  before(async () => {
    external = await serve({ '/ok': html('<p>ok</p>') });
    [production, twin] = await Promise.all([linkSite(external.url), linkSite(external.url)]);
    svc = await startTestService({}, { workers: true });
    key = await svc.newKey('business');

    const checked = await svc.call(`/api/deadlinks?url=${encodeURIComponent(production.url)}`, { headers: { 'X-API-Key': key } });
    expect(checked.status, checked.text).to.equal(200);
    deadlinks = checked.body;
    externalHitsBefore = [...external.hits];

    const queued = await svc.call('/api/compare', {
      method: 'POST',
      headers: { 'X-API-Key': key },
      json: { baseline_url: production.url, preview_url: twin.url, checks: ['links'] },
    });
    expect(queued.status, queued.text).to.equal(202);
    const last = (await readEvents(queued.body.events_url, key)).at(-1);
    expect(last?.event, JSON.stringify(last)).to.equal('report');
    linksRow = last?.data.results.find((r: { check: string }) => r.check === 'links');
    externalHitsAfter = [...external.hits];
  });

  after(async () => {
    await svc?.close();
    await Promise.all([external, production, twin].map((s) => s?.close()));
  });

  it('by default, a side finds what GET /api/deadlinks finds on the same site, the script-inserted link included', () => {
    const brokenPaths = (deadlinks.broken_links as Array<{ url: string }>).map((l) => new URL(l.url).pathname).sort();
    expect(brokenPaths, 'the dead-link check renders by default').to.include('/js-broken');
    expect(linksRow.baseline).to.equal(`${deadlinks.broken_count} broken of ${deadlinks.total_links_checked}`);
    expect(linksRow.scores.baseline).to.equal(deadlinks.summary.health_score);
    // The twin serves the same site: each broken link is broken on both sides, found by path.
    const compared = (linksRow.items as Array<{ kind: string; url: string }>).map((i) => [i.kind, new URL(i.url).pathname]);
    expect(compared.every(([kind]) => kind === 'still_broken'), JSON.stringify(compared)).to.equal(true);
    expect(compared.map(([, path]) => path).sort()).to.deep.equal(brokenPaths);
  });

  it("both sides' checks of the links GET /api/deadlinks checked before read the shared result cache: the linked server gets no request", () => {
    expect(externalHitsBefore, 'the dead-link check asked the external server').to.not.be.empty;
    expect(externalHitsAfter).to.deep.equal(externalHitsBefore);
  });
});
