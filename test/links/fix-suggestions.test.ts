import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { startFixtureServer } from '../support/fixture-server.js';
import { dualSchemeSite, loopbackCerts, type Route } from '../support/dual-scheme-site.js';
import { startWaybackStandIn, type Snapshot } from '../support/wayback-stand-in.js';

const ok: Route = (_s, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
const to = (status: number, where: string): Route => (_s, res, base) => res.writeHead(status, { location: base + where }).end();
const gone = (status: number): Route => (_s, res) => res.writeHead(status).end();

const archiveStandIn = (snapshots: Record<string, Snapshot>, mode?: 'answer' | 'fail' | 'hang') => startWaybackStandIn((url) => snapshots[url], mode);

describe('suggest_fixes: suggestions a reviewer can accept', () => {
  let dir: string;
  let site: Awaited<ReturnType<typeof dualSchemeSite>>;
  let archive: Awaited<ReturnType<typeof archiveStandIn>>;
  let svc: TestService;
  let key: string;
  const started: Array<{ close(): Promise<void> }> = [];

  before(async () => {
    const certs = await loopbackCerts();
    dir = await mkdtemp(path.join(os.tmpdir(), 'suggest-'));
    await writeFile(path.join(dir, 'ca.pem'), certs.ca);
    site = await dualSchemeSite(
      {
        '/': ok,
        '/moved': to(301, '/moved-again'),
        '/moved-again': to(308, '/final'),
        '/final': ok,
        '/temporary': to(302, '/final'),
        '/mixed': to(301, '/temporary'),
        '/moved-to-gone': to(301, '/dead'),
        '/plain': ok,
        '/http-only': { http: ok, https: gone(404) },
        '/dead': gone(404),
        '/dead-unarchived': gone(410),
      },
      certs.leaf,
    );
    archive = await archiveStandIn({ [`${site.http}/dead`]: { url: `http://web.archive.org/web/20130919044612/${site.http}/dead`, timestamp: '20130919044612' } });
    svc = await startTestService({ TLS_EXTRA_CA_FILE: path.join(dir, 'ca.pem'), ARCHIVE_API_URL: archive.url });
    key = await svc.newKey('business');
    started.push(site, archive, svc);
  });
  after(async () => {
    for (const s of started.reverse()) await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A repository whose README links every case; each link on its own line. */
  const readme = (base: string) =>
    ['# Links', '', ...['/moved#intro', '/temporary', '/mixed', '/moved-to-gone', '/plain?q=1', '/http-only', '/dead', '/dead-unarchived', '/final'].map((p) => `- [x](${base}${p})`), '- [missing](docs/none.md)'].join('\n');
  const documents = (s: TestService, k: string, extra: object) =>
    s.call('/api/deadlinks/documents', { method: 'POST', json: { documents: [{ path: 'README.md', content: readme(site.http) }], paths: ['README.md'], ...extra }, headers: { 'x-api-key': k } });

  const suggestions = (report: any) =>
    Object.fromEntries(
      [...report.broken_links, ...report.redirects, ...(report.upgrades ?? [])].filter((i: any) => i.suggestion).map((i: any) => [i.url.slice(site.http.length), i.suggestion]),
    );

  it('POST /api/deadlinks/documents with suggest_fixes=true suggests the permanent redirect, the https twin and the archived copy, and nothing else', async () => {
    const r = await documents(svc, key, { suggest_fixes: true });
    expect(r.status, r.text).to.equal(200);
    expect(suggestions(r.body)).to.deep.equal({
      '/moved': { url: `${site.http}/final`, reason: 'permanent_redirect' },
      '/plain?q=1': { url: `${site.https}/plain?q=1`, reason: 'https' },
      '/final': { url: `${site.https}/final`, reason: 'https' },
      // The API names snapshots with http://web.archive.org; the suggestion is the https address.
      '/dead': { url: `https://web.archive.org/web/20130919044612/${site.http}/dead`, reason: 'archived', archived_at: '2013-09-19T04:46:12Z' },
    });
    // 302 chains (/temporary, /mixed) and a 301 to a dead end (/moved-to-gone) get no redirect suggestion; /http-only's twin fails.
    expect(r.body.upgrades.map((i: any) => i.url)).to.deep.equal([`${site.http}/final`, `${site.http}/plain?q=1`]);
    expect(r.body.summary.suggestions).to.equal(4);
    // The archive was asked about the broken web links only, not about the missing file.
    expect(archive.calls.sort()).to.deep.equal([`/wayback/available ${site.http}/dead`, `/wayback/available ${site.http}/dead-unarchived`, `/wayback/available ${site.http}/moved-to-gone`]);
    // The twin of each working http link was asked; nothing was asked of a broken link's twin.
    expect(site.hits).to.include('https HEAD /plain').and.include('https HEAD /http-only');
    expect(site.hits).not.to.include('https HEAD /dead');
  });

  it('the same check without suggest_fixes carries no suggestion, no upgrades and makes no archive call', async () => {
    const before = archive.calls.length;
    const r = await documents(svc, key, {});
    expect(r.status).to.equal(200);
    expect(suggestions(r.body)).to.deep.equal({});
    expect(r.body).not.to.have.property('upgrades');
    expect(r.body.summary).not.to.have.property('suggestions');
    expect(archive.calls.length).to.equal(before);
  });

  it('GET /api/deadlinks?suggest_fixes=true on a site page gives the same suggestions', async () => {
    const server = await startFixtureServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="${site.http}/moved#intro">a</a> <a href="${site.http}/dead">b</a>`));
    started.push(server);
    const r = await svc.call(`/api/deadlinks?mode=quick&suggest_fixes=true&url=${encodeURIComponent(server.url + '/')}`, { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    const s = suggestions(r.body);
    expect(s['/moved']).to.deep.equal({ url: `${site.http}/final`, reason: 'permanent_redirect' });
    expect(s['/dead']?.reason).to.equal('archived');
  });

  it('with ARCHIVE_API_URL empty no archive call is made at all, and the other suggestions stand', async () => {
    const other = await startTestService({ TLS_EXTRA_CA_FILE: path.join(dir, 'ca.pem'), ARCHIVE_API_URL: '' });
    started.push(other);
    const before = archive.calls.length;
    const r = await documents(other, await other.newKey('business'), { suggest_fixes: true });
    expect(r.status).to.equal(200);
    expect(Object.keys(suggestions(r.body)).sort()).to.deep.equal(['/final', '/moved', '/plain?q=1']);
    expect(archive.calls.length).to.equal(before);
  });

  for (const mode of ['fail', 'hang'] as const) {
    it(`an archive that ${mode === 'fail' ? 'answers 500' : 'never answers'} leaves the report whole, without archived suggestions`, async function () {
      this.timeout(30_000);
      const bad = await archiveStandIn({}, mode);
      const other = await startTestService({ TLS_EXTRA_CA_FILE: path.join(dir, 'ca.pem'), ARCHIVE_API_URL: bad.url, FETCH_TIMEOUT_MS: '1000' });
      started.push(bad, other);
      const r = await documents(other, await other.newKey('business'), { suggest_fixes: true });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.broken_links.map((i: any) => i.kind).sort()).to.deep.equal(['http_404', 'http_404', 'http_410', 'missing_file']);
      expect(Object.values(suggestions(r.body)).map((s: any) => s.reason).sort()).to.deep.equal(['https', 'https', 'permanent_redirect']);
      expect(bad.calls.length).to.equal(3);
    });
  }
});

