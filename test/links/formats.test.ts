import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { marked, type Tokens } from 'marked';
import { toMarkdown } from '../../server/links/formats/markdown.js';
import type { DeadLinkReport, LinkItem } from '../../server/links/report.js';
import { startTestService, type TestService } from '../support/service.js';
import { scenarioSite } from './fixture-site.js';

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
    expect(Object.keys(rows[0])).to.deep.equal(['url', 'status', 'kind', 'found_on', 'file', 'line']);
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

  it('format=markdown, parsed by a markdown parser, has the headline, a table per page and collapsed details', async () => {
    const r = await get('markdown');
    expect(r.headers.get('content-type')).to.match(/^text\/markdown/);
    const tokens = marked.lexer(r.text);
    const headings = tokens.filter((t): t is Tokens.Heading => t.type === 'heading').map((t) => t.text);
    expect(headings[0]).to.equal('Dead-link report ❌ Failed');
    expect(headings).to.include(`Broken links (${json.broken_count})`);
    expect(headings).to.include(`On <${fx.site.url}/>`);
    const table = tokens.find((t): t is Tokens.Table => t.type === 'table');
    expect(table?.header.map((h) => h.text)).to.deep.equal(['Link', 'Status', 'Kind', 'Type']);
    expect(table?.rows.map((row) => row[0].text.replace(/^<|>$/g, '')).sort()).to.deep.equal(Object.keys(fx.quickBroken).sort());
    expect(r.text).to.include(`**Health score: ${json.summary.health_score}%**`);
    expect(r.text).to.match(/<details>\n<summary>Redirects \(1\)<\/summary>/);
    expect(r.text).to.match(/<summary>Bot-protected \(not counted as broken\) \(2\)<\/summary>/);
  });

  it('toMarkdown, with 5000 broken links on many pages, stays within the 65,536-character comment limit and says how many were cut', () => {
    const items: LinkItem[] = Array.from({ length: 5000 }, (_, i) => ({
      url: `https://example.com/a/very/long/path/segment/number/${i}/${'x'.repeat(40)}`,
      status: 404,
      kind: 'http_404',
      type: 'internal',
      resource: 'page',
      is_image: false,
      found_on: [`https://example.com/page-${i % 40}`],
      redirect_chain: [],
      final_url: 'x',
    }));
    const report = { ...json, broken_count: 5000, broken_links: items } as DeadLinkReport;
    const md = toMarkdown(report);
    expect(md.length).to.be.at.most(65_536);
    expect(md).to.match(/more not shown|Report truncated/);
    expect(md).to.include('Broken links (5000)');
  });
});
