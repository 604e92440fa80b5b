import { expect } from 'chai';
import type { Log, Result } from 'sarif';
import { startTestService, type TestService } from '../support/service.js';
import { html, serve, status, type FixtureServer } from './fixture-site.js';
import { readEvents } from '../support/event-stream.js';
import { validateSarif as validate } from '../support/sarif-schema.js';

function expectValidSarif(log: unknown): asserts log is Log {
  const ok = validate(log);
  expect(ok, JSON.stringify(validate.errors, null, 2)).to.equal(true);
}

/** A repository whose files hold broken links of several families, one file name needing percent-encoding. */
function repository(site: string, shift = 0) {
  const above = Array.from({ length: shift }, (_, i) => `Added line ${i + 1}.`);
  return {
    documents: [
      {
        path: 'README.md',
        content: [...above, '# Docs', '', `[gone](${site}/gone) and [missing](docs/missing.md)`, '', `[gone again](${site}/gone)`, '[bad anchor](#nope)'].join('\n'),
      },
      { path: 'docs/a guide#1.md', content: [...above, '# Guide', '', `[down](${site}/down) [ok](${site}/ok)`].join('\n') },
    ],
    paths: ['README.md', 'docs/a guide#1.md'],
  };
}

const fingerprints = (log: Log) => log.runs[0].results?.map((r) => r.partialFingerprints?.['sitelensFinding/v1']).sort();

describe('format=sarif (SARIF 2.1.0 for code scanning)', () => {
  let svc: TestService;
  let site: FixtureServer;
  let key: string;

  before(async () => {
    site = await serve({ '/': html(`<a href="/gone">gone</a> <a href="/ok">ok</a> <a href="/about#nowhere">x</a>`), '/ok': html('ok'), '/about': html('<p>about</p>'), '/gone': status(404), '/down': status(503) });
    svc = await startTestService({ FETCH_TIMEOUT_MS: '2000' });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await site?.close();
  });

  const documents = async (body: object) => {
    const r = await svc.call('/api/deadlinks/documents', { method: 'POST', json: { ...body, format: 'sarif' }, headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^application\/sarif\+json/);
    return r.body as Log;
  };

  it('POST /api/deadlinks/documents, with broken links in two files, gives a log valid against the official schema with one result per broken place', async () => {
    const log = await documents(repository(site.url));
    expectValidSarif(log);
    expect(validate({ ...log, version: '2.0.0' }), 'the schema rejects another version').to.equal(false);
    expect(log.version).to.equal('2.1.0');
    const run = log.runs[0];
    const rules = run.tool.driver.rules ?? [];
    const results = run.results ?? [];
    // gone twice in README, missing file, 503 in the guide; the missing anchor as a warning.
    expect(results.filter((r) => r.level === 'error')).to.have.length(4);
    expect(results.filter((r) => r.level === 'warning').map((r) => r.properties?.kind)).to.deep.equal(['missing_fragment']);
    const ruleOf = (r: Result) => rules[r.ruleIndex ?? -1];
    expect(run.tool.driver.informationUri).to.equal(`${svc.url}/`);
    for (const r of results) {
      expect(ruleOf(r)?.id).to.equal(r.ruleId);
      expect(ruleOf(r)?.helpUri).to.equal(`${svc.url}/`);
      expect(ruleOf(r)?.help?.text).to.be.a('string').and.not.equal('');
    }
    const names = (kind: string) => results.filter((r) => r.properties?.kind === kind).map((r) => ruleOf(r)?.name);
    expect(names('http_404')).to.deep.equal(['http-client-error', 'http-client-error']);
    expect(names('http_503')).to.deep.equal(['http-server-error']);
    expect(names('missing_file')).to.deep.equal(['missing-file']);
  });

  it('read back as GitHub reads it, every location maps to a file of the repository and its line holds the link', async () => {
    const repo = repository(site.url);
    const log = await documents(repo);
    const files = new Map(repo.documents.map((d) => [d.path, d.content.split('\n')]));
    const results = log.runs[0].results ?? [];
    expect(results).to.not.be.empty;
    for (const r of results) {
      const loc = r.locations?.[0]?.physicalLocation;
      const uri = loc?.artifactLocation?.uri ?? '';
      expect(loc?.artifactLocation?.uriBaseId).to.equal('%SRCROOT%');
      expect(uri, uri).to.not.match(/^\/|^[a-z][a-z0-9+.-]*:/i); // relative: no leading slash, no scheme (file://)
      // A URI reference resolved against the checkout root, as code scanning does.
      const path = decodeURIComponent(new URL(uri, 'file:///checkout/').pathname.slice('/checkout/'.length));
      expect(repo.paths, uri).to.include(path);
      const line = files.get(path)?.[(loc?.region?.startLine ?? 0) - 1] ?? '';
      const linkText = String(r.properties?.url).replace(/#.*/, '');
      const shown = linkText.startsWith('docs/') ? linkText.slice('docs/'.length) : linkText;
      expect(line.slice((loc?.region?.startColumn ?? 1) - 1), `${uri}:${loc?.region?.startLine}`).to.include(r.properties?.kind === 'missing_fragment' ? '#nope' : shown);
    }
    expect(results.some((r) => r.locations?.[0]?.physicalLocation?.artifactLocation?.uri === 'docs/a%20guide%231.md')).to.equal(true);
  });

  it('fingerprints are equal across two runs and unchanged when lines above the links shift', async () => {
    const first = await documents(repository(site.url));
    const second = await documents(repository(site.url));
    const shifted = await documents(repository(site.url, 3));
    expect(fingerprints(first)).to.have.length(5);
    expect(new Set(fingerprints(first)).size, 'two places of one link are two alerts').to.equal(5);
    expect(fingerprints(second)).to.deep.equal(fingerprints(first));
    expect(fingerprints(shifted)).to.deep.equal(fingerprints(first));
    const lines = (log: Log) => (log.runs[0].results ?? []).map((r) => r.locations?.[0]?.physicalLocation?.region?.startLine ?? 0).sort();
    expect(lines(shifted)).to.deep.equal(lines(first).map((l) => l + 3));
  });

  it('GET /api/deadlinks?format=sarif on a site gives the page as the artifact and validates', async () => {
    const r = await svc.call(`/api/deadlinks?mode=quick&format=sarif&url=${encodeURIComponent(site.url + '/')}`, { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^application\/sarif\+json/);
    const log = r.body as Log;
    expectValidSarif(log);
    const results = log.runs[0].results ?? [];
    const gone = results.find((x) => x.properties?.url === `${site.url}/gone`);
    expect(gone?.level).to.equal('error');
    expect(gone?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).to.equal(`${site.url}/`);
    expect(gone?.locations?.[0]?.physicalLocation?.region).to.equal(undefined);
  });

  it('GET /api/deadlinks?format=sarif as an event stream ends with an output event holding the same valid log', async () => {
    const events = await readEvents(`${svc.url}/api/deadlinks?mode=quick&format=sarif&url=${encodeURIComponent(site.url + '/')}`, key);
    const output = events.find((e) => e.event === 'output');
    expect(output?.data.format).to.equal('sarif');
    const log = JSON.parse(output?.data.content);
    expectValidSarif(log);
    expect((log.runs[0].results ?? []).map((r: Result) => r.properties?.url)).to.include(`${site.url}/gone`);
  });
});
