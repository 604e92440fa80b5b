import zlib from 'node:zlib';
import { expect } from 'chai';
import { freePort, startTestService, type TestService } from '../support/service.js';
import { startFixtureSite } from './support/fixture-site.js';

const page = `<!doctype html><html><head><title>Fixture</title></head><body>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(80)}</body></html>`;
const cached = { 'cache-control': 'public, max-age=300', etag: '"v1"' };

/**
 * The speed points the documented rubric takes for a measured time. The time is the
 * machine's (a busy one is slower), so a grade is checked against the time the report
 * measured, not against a band of the wall clock.
 */
const speedLoss = (ms: number) => {
  const t = Math.round(ms);
  return t > 3000 ? 40 : t > 1500 ? 30 : t > 800 ? 20 : t > 300 ? 10 : 0;
};
const gradeOf = (score: number) => (score >= 95 ? 'A+' : score >= 85 ? 'A' : score >= 70 ? 'B' : score >= 50 ? 'C' : 'F');
const speedIssue = /^(very slow: |slow: )?\d+ ms in total/;
/** Grade issues other than speed. */
const otherIssues = (issues: string[]) => issues.filter((i) => !speedIssue.test(i));

describe('GET /api/perf', function () {
  let svc: TestService;
  let site: Awaited<ReturnType<typeof startFixtureSite>>;
  let key: string;

  before(async function () {
    site = await startFixtureSite({
      '/good': (req, res) => {
        const gz = zlib.gzipSync(page);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', server: 'fixture/1.0', ...cached });
        res.end(gz);
      },
      '/bare': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      },
      '/slow': (_req, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', ...cached }).end(zlib.gzipSync(page));
        }, 1000);
      },
      '/hang': () => undefined,
      '/moved': (_req, res) => res.writeHead(301, { location: '/good' }).end(),
      '/broken': (_req, res) => res.writeHead(500, { 'content-type': 'text/plain', ...cached }).end('boom'),
    });
    svc = await startTestService({ FETCH_TIMEOUT_MS: '2500' });
    key = await svc.newKey('business');
  });

  after(async function () {
    await svc?.close();
    await site?.close();
  });

  const perf = (path: string, extra = '') =>
    svc.call(`/api/perf?url=${encodeURIComponent(site.url + path)}${extra}`, { headers: { 'X-API-Key': key } });

  it('when the page is compressed, cacheable and small, loses points for nothing but its measured time (A+ when fast), with every field', async function () {
    const r = await perf('/good');

    expect(r.status, r.text).to.equal(200);
    const b = r.body;
    expect(b).to.include({ url: `${site.url}/good`, final_url: `${site.url}/good`, status_code: 200, redirected: false });
    expect(otherIssues(b.grade_issues)).to.deep.equal([]);
    expect(b.score).to.equal(100 - speedLoss(b.response_time_ms));
    expect(b.grade).to.equal(gradeOf(b.score));
    expect(b.content_type).to.equal('text/html; charset=utf-8');
    expect(b.server).to.equal('fixture/1.0');
    expect(b.compression).to.equal('gzip');
    expect(b.response_size_bytes).to.equal(Buffer.byteLength(page));
    expect(b.transfer_size_bytes).to.equal(zlib.gzipSync(page).length);
    expect(b.headers).to.include({ 'cache-control': 'public, max-age=300', etag: '"v1"', 'content-encoding': 'gzip' });
    expect(b.response_time_ms).to.be.a('number').and.above(0);
    for (const k of ['dns_ms', 'connect_ms', 'tls_ms', 'ttfb_ms', 'download_ms', 'total_ms', 'redirect_ms']) expect(b.timings[k]).to.be.a('number');
    expect(Number.isNaN(Date.parse(b.timestamp))).to.equal(false);
  });

  it('when compression and caching headers are missing, grades C and says what to add', async function () {
    const r = await perf('/bare');

    expect(r.status, r.text).to.equal(200);
    expect(r.body.grade).to.equal('C');
    expect(r.body.compression).to.equal(null);
    const issues: string = r.body.grade_issues.join('\n');
    expect(issues).to.match(/no compression: enable gzip or br for text\/html/);
    expect(issues).to.match(/no caching headers: add Cache-Control/);
    expect(issues).to.match(/no ETag or Last-Modified/);
  });

  it('when the server takes a second, loses speed points for the time it measured (B, C past 3 s)', async function () {
    const r = await perf('/slow');

    expect(r.status, r.text).to.equal(200);
    expect(r.body.timings.ttfb_ms, 'the server waits a second before its first byte').to.be.at.least(900);
    expect(r.body.grade_issues.join('\n')).to.match(/slow: \d+ ms in total/);
    expect(otherIssues(r.body.grade_issues)).to.deep.equal([]);
    expect(r.body.score).to.equal(100 - speedLoss(r.body.response_time_ms));
    expect(r.body.grade).to.equal(gradeOf(r.body.score)).and.to.be.oneOf(['B', 'C']);
  });

  it('when the page redirects, follows it and reports the hop', async function () {
    const r = await perf('/moved');

    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ redirected: true, final_url: `${site.url}/good`, status_code: 200 });
    expect(r.body.redirects).to.have.length(1);
    expect(r.body.redirects[0]).to.include({ url: `${site.url}/moved`, status_code: 301, location: `${site.url}/good` });
    expect(otherIssues(r.body.grade_issues)).to.deep.equal(['1 redirect(s) before the final page: link to the final URL directly (-5)']);
    expect(r.body.score).to.equal(95 - speedLoss(r.body.response_time_ms));
    expect(r.body.grade).to.equal(gradeOf(r.body.score));
  });

  it('when follow_redirects=false, measures the redirect response itself', async function () {
    const r = await perf('/moved', '&follow_redirects=false');

    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ redirected: false, final_url: `${site.url}/moved`, status_code: 301 });
    expect(r.body.headers.location).to.equal('/good');
  });

  it('when the server answers 500, grades F', async function () {
    const r = await perf('/broken');

    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ status_code: 500, grade: 'F' });
    expect(r.body.grade_issues.join('\n')).to.match(/server error: HTTP 500/);
  });

  it('when the server never answers, answers 504', async function () {
    const r = await perf('/hang');

    expect(r.status).to.equal(504);
    expect(r.body.error).to.match(/did not answer in time/);
  });

  it('when the port is closed, answers 502 naming the refusal', async function () {
    const port = await freePort();
    const r = await svc.call(`/api/perf?url=${encodeURIComponent(`http://127.0.0.1:${port}/`)}`, { headers: { 'X-API-Key': key } });

    expect(r.status).to.equal(502);
    expect(r.body.error).to.match(/refused/);
  });

  it('when follow_redirects is not a boolean, answers 400 naming it', async function () {
    const r = await perf('/good', '&follow_redirects=maybe');

    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/^follow_redirects /);
  });
});
