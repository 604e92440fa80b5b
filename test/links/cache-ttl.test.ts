import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/wait.js';
import { status } from './fixture-site.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

const WORKING = 990;
const GONE = 10;

/** A 1,000-link repository: ten files of a hundred links, ten of them dead, plus one link that always answers 429. */
function repository(site: string, busy: string) {
  const urls = [...Array.from({ length: WORKING }, (_, i) => `${site}/p/${i}`), ...Array.from({ length: GONE }, (_, i) => `${site}/gone/${i}`)];
  const documents = Array.from({ length: 10 }, (_, d) => ({
    path: `docs/part-${d}.md`,
    content: [`# Part ${d}`, '', ...urls.slice(d * 100, d * 100 + 100).map((u, i) => `- [link ${i}](${u})`), ...(d === 0 ? [`- [busy](${busy}/busy)`] : [])].join('\n'),
  }));
  return { documents, paths: documents.map((x) => x.path) };
}

const findings = (report: any) => report.broken_links.map((i: any) => `${i.kind} ${i.url} @${i.file}:${i.line}:${i.column}`).sort();

describe('cache_ttl: results that carry across runs', () => {
  let svc: TestService;
  let site: FixtureServer;
  let busy: FixtureServer;
  /** Requests the site saw, as `METHOD path`. */
  const hits: string[] = [];
  let busyHits = 0;
  let keyA: string;
  let keyB: string;

  before(async () => {
    site = await startFixtureServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      status(req.url?.startsWith('/p/') ? 200 : 404)(req, res);
    });
    // Its own host, so its 429s slow no other link (the checker pauses a host that answers 429).
    busy = await startFixtureServer((req, res) => {
      busyHits++;
      status(429, { 'retry-after': '0' })(req, res);
    }, '127.0.0.2');
    // The shared cache keeps results one second: what outlives it comes from a caller's own cache_ttl.
    svc = await startTestService({ LINK_CACHE_OK_SECONDS: '1', LINK_CACHE_FAIL_SECONDS: '1' });
    keyA = await svc.newKey('business');
    keyB = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await site?.close();
    await busy?.close();
  });

  const check = async (key: string, extra: object) => {
    const before = hits.length;
    const r = await svc.call('/api/deadlinks/documents', { method: 'POST', json: { ...repository(site.url, busy.url), max_duration: 120, ...extra }, headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    return { report: r.body, requests: hits.slice(before) };
  };

  it('a 1,000-link repository checked twice within cache_ttl makes at most a tenth of the requests the second time, with the same findings; failures and 429s are asked again; another key gets nothing of it', async function () {
    this.timeout(120_000);
    const first = await check(keyA, { cache_ttl: 3600 });
    expect(first.report.total_links_checked).to.equal(WORKING + GONE + 1);
    expect(first.report.summary.cached_results).to.equal(0);
    expect(first.requests.length).to.be.at.least(WORKING + GONE);
    const busyFirst = busyHits;
    expect(busyFirst).to.be.greaterThan(0);

    // Past the shared TTL (and the failures' TTL): only the caller's own cache_ttl can answer now.
    await until('the shared entries expire', async () => ((await svc.deps.redis.keys(`${svc.deps.config.REDIS_PREFIX}links:r:*`)).length === 0 ? true : undefined));

    const second = await check(keyA, { cache_ttl: 3600 });
    expect(second.requests.length, 'second run requests').to.be.at.most(first.requests.length / 10);
    expect(findings(second.report)).to.deep.equal(findings(first.report));
    expect(second.report.total_links_checked).to.equal(first.report.total_links_checked);
    expect(second.report.summary.cached_results).to.equal(WORKING);
    // Failures were not kept past their (shorter) TTL: each dead link was asked again; the 429 too.
    for (let i = 0; i < GONE; i++) expect(second.requests, `/gone/${i}`).to.include(`HEAD /gone/${i}`);
    expect(second.requests.some((h) => h.startsWith('HEAD /p/'))).to.equal(false);
    expect(busyHits).to.be.greaterThan(busyFirst);

    // Another tenant with the default TTL gets none of A's long-kept results.
    const other = await check(keyB, {});
    expect(other.requests.filter((h) => h.startsWith('HEAD /p/')).length).to.equal(WORKING);
    expect(findings(other.report)).to.deep.equal(findings(first.report));
  });

  it('cache_ttl outside 60 to 604800 answers 400 naming the parameter, in the body and in the query', async () => {
    for (const ttl of [59, 604_801, 1.5]) {
      const r = await svc.call('/api/deadlinks/documents', { method: 'POST', json: { documents: [{ path: 'a.md', content: 'x' }], paths: ['a.md'], cache_ttl: ttl }, headers: { 'x-api-key': keyA } });
      expect(r.status, String(ttl)).to.equal(400);
      expect(r.body.error).to.include('cache_ttl');
    }
    const q = await svc.call(`/api/deadlinks?mode=quick&url=${encodeURIComponent(site.url + '/')}&cache_ttl=30`, { headers: { 'x-api-key': keyA } });
    expect(q.status).to.equal(400);
    expect(q.body.error).to.include('cache_ttl');
  });
});
