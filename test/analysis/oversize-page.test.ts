import { expect } from 'chai';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestService, type TestService } from '../support/service.js';

const head = '<!doctype html><html lang="en"><head><title>big</title><meta name="description" content="A very large page."></head><body><h1>big</h1>';
const paragraph = `<p>${'lorem ipsum dolor sit amet '.repeat(40)}</p>\n`;

/**
 * A page far past ANALYSIS_MAX_BYTES (8 MB against 1 MB here, as 50 MB against the default 5 MB)
 * and one whose target answers but never finishes its page: the reports say what happened.
 */
describe('a page larger than ANALYSIS_MAX_BYTES, and one that never finishes', function () {
  this.timeout(120_000);
  let svc: TestService;
  let site: FixtureServer;
  let key: string;

  before(async () => {
    site = await startFixtureServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write(head);
      if (req.url === '/endless') return; // the start of the page, then nothing: it never finishes
      let sent = 0;
      const pump = () => {
        while (sent < 8 * 1024 * 1024) {
          sent += paragraph.length;
          if (!res.write(paragraph)) return void res.once('drain', pump);
        }
        res.end('</body></html>');
      };
      pump();
    });
    svc = await startTestService({ ANALYSIS_MAX_BYTES: String(1024 * 1024), FETCH_TIMEOUT_MS: '3000' });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc.close();
    await site.close();
  });

  const get = (path: string) => svc.call(path, { headers: { 'X-API-Key': key } });

  it('GET /api/perf says the response is more than the 1.0 MB it read, and that reading stopped at the limit', async () => {
    const r = await get(`/api/perf?url=${encodeURIComponent(`${site.url}/`)}`);
    expect(r.status).to.equal(200);
    expect(r.body.truncated).to.equal(true);
    expect(r.body.grade_issues).to.include("large response: more than 1.0 MB (reading stopped at this service's limit); keep pages under 500 KB (-15)");
  });

  it('GET /api/seo says the HTML is more than the 1024 KB it read, and that the checks saw only its start', async () => {
    const r = await get(`/api/seo?url=${encodeURIComponent(`${site.url}/`)}`);
    expect(r.status).to.equal(200);
    expect(r.body.checks.page_weight.message).to.match(/^HTML is more than 10\d\d KB \(500 KB at most\); reading stopped at this service's limit, so the checks saw only its start$/);
    expect(r.body.recommendations.some((x: string) => /^Reduce the HTML from more than 10\d\d KB to under 500 KB/.test(x))).to.equal(true);
  });

  it('GET /api/screenshot and /api/seo?render=true of a page that answered and never finished: 504 saying it answered', async () => {
    const host = new URL(site.url).host;
    for (const path of ['/api/screenshot?full_page=false&', '/api/seo?render=true&']) {
      const r = await get(`${path}url=${encodeURIComponent(`${site.url}/endless`)}`);
      expect(r.status, path).to.equal(504);
      expect(r.body.error, path).to.match(new RegExp(`^${host} answered, but its page did not finish loading within \\d+ ms`));
    }
  });
});
