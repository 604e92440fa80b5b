import { expect } from 'chai';
import { marked, type Tokens } from 'marked';
import { githubCommentLimit, stepSummaryLimit } from '../../server/report-markdown/budget.js';
import { renderDeadLinks } from '../../server/report-markdown/dead-links.js';
import { syntheticReport } from './support/synthetic-report.js';

const rowsOf = (md: string) =>
  marked
    .lexer(md)
    .flatMap((t) => (t.type === 'table' ? (t as Tokens.Table).rows : []))
    .filter((r) => r.length === 3);

describe('report-markdown dead-link report', () => {
  it('at 10 links: headline, gate, one open table worst first with every place as file:line:column linked to the line, one footer', () => {
    const report = syntheticReport(8, 2);
    report.gate = { threshold: 99.5 };
    report.pass = false;
    const md = renderDeadLinks(report, {
      sourceUrl: 'https://github.com/acme/docs/blob/abc1234/',
      context: { commit: { sha: 'abc1234def', url: 'https://github.com/acme/docs/commit/abc1234def' }, run: { label: 'run 42', url: 'https://github.com/acme/docs/actions/runs/9' } },
    });
    const tokens = marked.lexer(md);
    expect((tokens[0] as Tokens.Heading).text).to.equal('❌ Dead links: 8 broken of 36 links checked');
    expect(md).to.include('Commit [`abc1234`](https://github.com/acme/docs/commit/abc1234def) · [run 42](https://github.com/acme/docs/actions/runs/9)');
    expect(md).to.include('Gate: health score ≥ 99.5, **failed** with a health score of 66.7 and 8 broken links.');
    const rows = rowsOf(md);
    expect(rows).to.have.length(10);
    expect(rows.slice(0, 8).every((r) => r[1].text.startsWith('❌'))).to.equal(true);
    expect(rows.slice(8).every((r) => r[1].text.startsWith('⚠️'))).to.equal(true);
    const placeCounts = rows.slice(0, 8).map((r) => r[2].tokens.filter((t) => t.type === 'link').length);
    expect(placeCounts).to.deep.equal([...placeCounts].sort((a, b) => b - a));
    const firstPlace = rows[0][2].tokens.find((t): t is Tokens.Link => t.type === 'link');
    expect(firstPlace?.href).to.match(/^https:\/\/github\.com\/acme\/docs\/blob\/abc1234\/docs\/section-0\/page-\d\.md#L10$/);
    expect(firstPlace?.text).to.match(/^docs\/section-0\/page-\d\.md:10:3$/);
    expect(md).not.to.include('<details>');
    expect(md.match(/<sub>SiteLens dead-link check/g)).to.have.length(1);
    expect(md).not.to.include('Not shown here');
  });

  it('a gate that holds is said calmly: ✅, "passed", and the broken links are within it', () => {
    const report = syntheticReport(2);
    report.gate = { threshold: 50 };
    report.pass = true;
    const md = renderDeadLinks(report);
    expect(md.split('\n')[0]).to.equal('### ✅ Dead links: gate passed, 2 broken of 16 links checked');
    expect(md).to.include('**passed** with a health score of 66.7; the 2 broken links below are within it.');
    expect(md).not.to.include('❌ Dead links');
  });

  it('at 1,000 links: under 65,536 characters, 20 open rows then <details>, and the note counts exactly what was cut', () => {
    const md = renderDeadLinks(syntheticReport(1000, 30), { fullReport: '[The full JSON report](https://example.com/artifact) lists every link.' });
    expect(md.length).to.be.at.most(githubCommentLimit);
    expect(md.length).to.be.greaterThan(githubCommentLimit - 3000);
    const tokens = marked.lexer(md);
    const tables = tokens.filter((t): t is Tokens.Table => t.type === 'table');
    expect(tables[1].rows).to.have.length(20);
    expect(md).to.include('<details><summary>1,010 more links with problems</summary>');
    const shown = rowsOf(md).length;
    const note = /✂️ Not shown here, to fit GitHub's 65,536-character limit for comments: ([\d,]+) broken links and 30 warnings\. \[The full JSON report\]\(https:\/\/example\.com\/artifact\) lists every link\./.exec(md);
    expect(note, md.slice(-600)).not.to.equal(null);
    expect(shown + Number(note?.[1].replace(/,/g, '')) + 30).to.equal(1030);
    expect(md.match(/<sub>SiteLens dead-link check/g)).to.have.length(1);
    expect(md.trimEnd().endsWith('</sub>')).to.equal(true);
  });

  it('at 1,000 links with a step summary budget: every link shown, nothing cut', () => {
    const md = renderDeadLinks(syntheticReport(1000, 30), { limit: stepSummaryLimit });
    expect(rowsOf(md)).to.have.length(1030);
    expect(md).not.to.include('Not shown here');
  });

  it('a link found in 50 places lists 20 and counts the rest, in the row and in the cut note', () => {
    const report = syntheticReport(1);
    report.broken_links[0].locations = Array.from({ length: 50 }, (_, i) => ({ file: 'README.md', line: i + 1, column: 1 }));
    const md = renderDeadLinks(report);
    expect(md).to.include(', … 30 more places |');
    expect(md).to.include("Not shown here, to fit GitHub's 65,536-character limit for comments: 30 places.");
  });

  it('site mode: places are the pages, redirects and bot-protected links folded', () => {
    const page = 'https://site.example/blog/post';
    const report = syntheticReport(0);
    report.mode = 'full';
    report.broken_links = [{ url: 'https://site.example/gone', status: 410, kind: 'http_410', is_image: false, found_on: [page], redirect_chain: [], final_url: 'https://site.example/gone' }];
    report.broken_count = 1;
    report.redirects = [{ url: 'http://a.example/', status: 200, kind: 'redirect', is_image: false, found_on: [page], redirect_chain: [{ status: 301, location: 'https://a.example/' }], final_url: 'https://a.example/' }];
    report.bot_blocked = [{ url: 'https://b.example/', status: 403, kind: 'bot_blocked', is_image: false, found_on: [page], redirect_chain: [], final_url: 'https://b.example/' }];
    const md = renderDeadLinks(report);
    expect(md).to.include(`| <https://site.example/gone> | ❌ \`410\` | <${page}> |`);
    expect(md).to.include('<details><summary>Redirects (1)</summary>');
    expect(md).to.include('| <http://a.example/> | 301 → 200 <https://a.example/> |');
    expect(md).to.include('<details><summary>Bot-protected, not counted as broken (1)</summary>');
  });
});
