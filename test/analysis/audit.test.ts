import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { freePort, startTestService, type TestService } from '../support/service.js';
import { makeCa, makeLeaf, startTlsServer } from './support/certs.js';
import { html, startFixtureSite } from './support/fixture-site.js';
import { wordpressHeaders, wordpressPage } from './fixtures.js';

describe('GET /api/audit', function () {
  let svc: TestService;
  let plain: Awaited<ReturnType<typeof startFixtureSite>>;
  let secure: Awaited<ReturnType<typeof startTlsServer>>;
  let dir: string;
  let key: string;

  before(async function () {
    // Named as a real issuer, so the tech stack's certIssuer rules have something to find.
    const ca = await makeCa({ organizationName: "Let's Encrypt", commonName: 'R3' });
    dir = await mkdtemp(path.join(os.tmpdir(), 'audit-test-'));
    await writeFile(path.join(dir, 'ca.pem'), ca.cert);
    secure = await startTlsServer(await makeLeaf({ ca }), {}, (_req, res) => {
      res.writeHead(200, { ...wordpressHeaders, 'content-encoding': 'gzip', 'cache-control': 'max-age=300', etag: '"a"' });
      res.end(zlib.gzipSync(wordpressPage));
    });
    plain = await startFixtureSite({ '/blog': html(wordpressPage, wordpressHeaders) });
    svc = await startTestService({ TLS_EXTRA_CA_FILE: path.join(dir, 'ca.pem') });
    key = await svc.newKey('business');
    await svc.deps.techDetector.ready(); // compiling the fingerprints blocks the loop once; keep it out of the timings
  });

  after(async function () {
    await svc?.close();
    await plain?.close();
    await secure?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const audit = (url: string, extra = '') => svc.call(`/api/audit?url=${encodeURIComponent(url)}${extra}`, { headers: { 'X-API-Key': key } });

  it('on an https site, returns tech stack, TLS and performance, each shaped as its own endpoint, with a summary', async function () {
    const r = await audit(`https://localhost:${secure.port}/`);

    expect(r.status, r.text).to.equal(200);
    const b = r.body;
    expect(b.techstack.technologies.CMS.map((t: { name: string }) => t.name)).to.include('WordPress');
    // The certificate's issuer, read from the TLS part's own handshake.
    const issuerTech = Object.values(b.techstack.technologies as Record<string, Array<{ name: string; evidence: Array<{ type: string }> }>>).flat().find((t) => t.name === "Let's Encrypt");
    expect(issuerTech?.evidence.map((e) => e.type)).to.deep.equal(['cert_issuer']);
    expect(b.ssl.issuer).to.deep.equal({ common_name: 'R3', organization: "Let's Encrypt" });
    expect(b.ssl).to.include({ domain: 'localhost', port: secure.port, valid: true, grade: 'A+' });
    expect(b.perf).to.include({ status_code: 200, compression: 'gzip' });
    expect(b.perf.grade).to.match(/^A/);
    expect(b).to.not.have.property('seo');
    expect(b.summary).to.include({ perf_grade: b.perf.grade, ssl_grade: 'A+', seo_score: null });
    expect(b.summary.technology_count).to.be.at.least(5);
    expect(b.summary.parts_ok).to.deep.equal(['techstack', 'ssl', 'perf']);
    expect(b.summary.parts_failed).to.deep.equal([]);
  });

  it('on an http site with seo=true, reports the missing TLS in place and adds the rendered SEO report', async function () {
    const r = await audit(`http://localhost:${plain.port}/blog`, '&seo=true');

    expect(r.status, r.text).to.equal(200);
    const b = r.body;
    expect(b.ssl).to.deep.include({ kind: 'refused' });
    expect(b.ssl.error).to.match(/connection was refused/);
    expect(b.perf.status_code).to.equal(200);
    expect(b.techstack.technology_count).to.be.at.least(5);
    expect(b.seo).to.include({ rendered: true, status_code: 200 });
    expect(b.seo.checks.title.value).to.equal('Fixture blog');
    expect(b.summary.parts_failed).to.deep.equal(['ssl']);
    expect(b.summary.seo_score).to.equal(b.seo.score);
    expect(b.summary.top_issues[0]).to.match(/^TLS: /);
  });

  it('when the site cannot be reached at all, answers 502', async function () {
    const port = await freePort();
    const r = await audit(`http://127.0.0.1:${port}/`);

    expect(r.status).to.equal(502);
    expect(r.body.error).to.match(/refused/);
  });
});
