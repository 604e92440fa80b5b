import { expect } from 'chai';
import { marked } from 'marked';
import type { CompareReport } from '../../server/compare/compare-report.js';
import { buildReport } from '../../server/compare/compare-report.js';
import { diffLinks } from '../../server/compare/links-diff.js';
import { diffTechstack } from '../../server/compare/techstack-diff.js';
import type { DeadLinkReport } from '../../server/links/report.js';
import type { TechstackReport } from '../../server/techstack/techstack-check.js';
import { renderPreviewReport } from '../../server/report-markdown/preview-report.js';

const links = (origin: string, broken: string[]) =>
  ({
    broken_links: broken.map((p) => ({ url: `${origin}${p}`, status: 404, kind: 'http_404', found_on: [`${origin}/`] })),
    broken_count: broken.length,
    total_links_checked: broken.length + 1,
    summary: { health_score: 50 },
  }) as unknown as DeadLinkReport;
const tech = (name: string, version: string) => ({ technologies: { Libraries: [{ name, version }] } }) as unknown as TechstackReport;

function report(broken: string[]): CompareReport {
  const input = { baseline_url: 'https://prod.test/', preview_url: 'https://pr.test/', paths: ['/'], checks: ['links', 'techstack'] as const, viewports: [], max_changed_ratio: 0.001 };
  const results = [
    diffLinks(links('https://prod.test', []), links('https://pr.test', broken), { baseline: input.baseline_url, preview: input.preview_url }),
    diffTechstack(tech('x|y', '1.0.0'), tech('x|y', '2.0.0')),
  ];
  return { ...buildReport({ ...input, checks: [...input.checks] }, results, new Date()), trend: { image_url: 'https://api.test/api/compare/trend/abc/image', runs: [] } };
}

describe('renderPreviewReport (unit)', () => {
  it('one table row per check with its icon; names from the sites escaped so no cell or mention breaks out', () => {
    const md = renderPreviewReport(report(['/a|b@team']));
    const tables = marked.lexer(md).filter((t) => t.type === 'table') as Array<{ rows: Array<Array<{ text: string }>> }>;
    expect(tables[0].rows.map((r) => [r[0].text, r[4].text])).to.deep.equal([['Broken links', '❌'], ['Tech stack', '⚠️']]);
    expect(md).to.include('x\\|y');
    // Link destinations are not read for mentions; everywhere else the @ is escaped.
    expect(md.replace(/\]\([^)]*\)/g, ']()')).not.to.match(/(^|[^\\])@team/);
    expect(md).to.include('<img src="https://api.test/api/compare/trend/abc/image" width="480"');
    expect(md.split('\n')[0]).to.equal('### ❌ Preview report: 1 regression in broken links');
  });

  it('a report larger than the comment limit is cut to fit, saying how much was left out', () => {
    const md = renderPreviewReport(report(Array.from({ length: 2000 }, (_, i) => `/missing-page-number-${i}`)), { limit: 20_000 });
    expect(md.length).to.be.at.most(20_000);
    expect(md).to.match(/✂️ Not shown here, .*: \d[\d,]* differences\. The JSON report lists every difference\./);
  });
});
