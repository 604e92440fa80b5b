import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { marked, type Tokens } from 'marked';
import { startTestService, type TestService } from '../support/service.js';
import { scenarioSite } from './fixture-site.js';
import { startFixtureServer } from '../support/fixture-server.js';

describe('GET /api/deadlinks output formats', () => {
  let svc: TestService;
  let fx: Awaited<ReturnType<typeof scenarioSite>>;
  let key: string;
  let json: any;
  const get = (format: string) =>
    svc.call(`/api/deadlinks?mode=quick&threshold=99&format=${format}&url=${encodeURIComponent(fx.site.url + '/')}`, { headers: { 'x-api-key': key } });

  before(async () => {
    svc = await startTestService({ FETCH_TIMEOUT_MS: '800' });
    key = await svc.newKey('business');
    fx = await scenarioSite();
    json = (await get('json')).body;
  });
  after(async () => {
    await fx?.close();
    await svc?.close();
  });

  it('format=csv, parsed by a CSV parser, has one row per broken link with the documented columns', async () => {
    const r = await get('csv');
    expect(r.headers.get('content-type')).to.match(/^text\/csv/);
    const rows = parse(r.text, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0])).to.deep.equal(['url', 'status', 'kind', 'found_on', 'file', 'line', 'column']);
    expect(Object.fromEntries(rows.map((x) => [x.url, x.kind]))).to.deep.equal(fx.quickBroken);
    const dns = rows.find((x) => x.kind === 'dns');
    expect(dns?.status).to.equal('');
    expect(rows.find((x) => x.kind === 'http_410')?.found_on).to.equal(fx.site.url + '/');
  });

  it('format=github, read line by line, gives one ::error per broken link, ::warning per warning and a final ::notice', async () => {
    const r = await get('github');
    const lines = r.text.trim().split('\n');
    const errors = lines.filter((l) => l.startsWith('::error '));
    expect(errors).to.have.length(json.broken_count);
    for (const [url, kind] of Object.entries(fx.quickBroken)) {
      expect(errors.some((l) => l.includes(`title=Broken link (${kind})::${url} is broken`)), url).to.equal(true);
    }
    expect(lines.filter((l) => l.startsWith('::warning '))).to.have.length(json.warnings.length);
    expect(lines.at(-1)).to.match(new RegExp(`^::notice title=Dead-link check::Health ${json.summary.health_score}%25: ${json.broken_count} broken of ${json.total_links_checked} links.* Failed\\.$`));
  });

  it('format=markdown (the shared report renderer), parsed by a Markdown parser, has the headline, the gate, one row per broken link and the folded sections', async () => {
    const r = await get('markdown');
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/markdown/);
    const tokens = marked.lexer(r.text);
    const headings = tokens.filter((t): t is Tokens.Heading => t.type === 'heading').map((t) => t.text);
    expect(headings[0]).to.equal(`❌ Dead links: ${json.broken_count} broken of ${json.total_links_checked} links checked`);
    expect(r.text).to.include(`Gate: health score ≥ 99, **failed** with a health score of ${json.summary.health_score}`);
    const problems = tokens.filter((t): t is Tokens.Table => t.type === 'table')[1];
    expect(problems.header.map((h) => h.text)).to.deep.equal(['Link', 'Status', 'Found in']);
    const broken = problems.rows.filter((row) => row[1].text.startsWith('❌')).map((row) => row[0].tokens.find((t): t is Tokens.Link => t.type === 'link')?.href);
    expect(broken.sort()).to.deep.equal(Object.keys(fx.quickBroken).sort());
    expect(problems.rows.every((row) => row[2].text.includes(fx.site.url))).to.equal(true);
    expect(r.text).to.include('<details><summary>Redirects (1)</summary>');
    expect(r.text).to.include('<details><summary>Bot-protected, not counted as broken (2)</summary>');
    expect(r.text.length).to.be.at.most(65_536);
  });

  it('format=markdown without threshold or max_broken names no gate', async () => {
    const r = await svc.call(`/api/deadlinks?mode=quick&format=markdown&url=${encodeURIComponent(fx.site.url + '/')}`, { headers: { 'x-api-key': key } });
    expect(r.status).to.equal(200);
    expect(r.text).to.include(`Target: <${fx.site.url}/>.`);
    expect(r.text).not.to.match(/Gate|gate/);
  });
});

describe('GET /api/deadlinks?format=markdown, for 550 long URLs that differ only in the middle', function () {
  this.timeout(120_000);
  let svc: TestService;
  let site: Awaited<ReturnType<typeof startFixtureServer>>;
  const slug = (k: number) => `/documentation/archive/2019/section/entry-${k}-with-a-descriptive-slug-that-goes-on-for-a-while/index.html`;

  before(async () => {
    const links = Array.from({ length: 550 }, (_, k) => `<a href="${slug(k)}">entry ${k}</a>`).join('\n');
    site = await startFixtureServer((req, res) => {
      if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>archive</title>${links}`);
      else res.writeHead(404, { 'content-type': 'text/html' }).end('gone');
    });
    svc = await startTestService();
  });
  after(async () => {
    await svc.close();
    await site.close();
  });

  it('each row\'s label keeps the part that differs (entry-{k}), every label distinct and at most 80 characters', async () => {
    const key = await svc.newKey('business');
    const r = await svc.call(`/api/deadlinks?mode=quick&format=markdown&url=${encodeURIComponent(site.url + '/')}`, { headers: { 'x-api-key': key } });
    expect(r.status).to.equal(200);
    const tables = marked.lexer(r.text).filter((t): t is Tokens.Table => t.type === 'table').slice(1);
    const labels = tables.flatMap((t) => t.rows.map((row) => row[0].tokens.find((x): x is Tokens.Link => x.type === 'link')).filter((l) => l !== undefined));
    expect(labels.length).to.be.greaterThan(100); // as many as fit in a comment
    for (const l of labels) {
      const k = /entry-(\d+)-/.exec(l.href)?.[1];
      expect(l.text, l.href).to.include(`entry-${k}-`);
      expect([...l.text.replace(/\\(.)/g, '$1')].length, l.text).to.be.at.most(80);
    }
    expect(new Set(labels.map((l) => l.text)).size).to.equal(labels.length);
  });
});
