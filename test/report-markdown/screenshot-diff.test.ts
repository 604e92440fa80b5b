import { expect } from 'chai';
import { marked, type Tokens } from 'marked';
import { renderScreenshotDiff, type ComparisonView, type DiffReportView } from '../../server/report-markdown/screenshot-diff.js';

const image = (path: string, kind: string) => `https://sitelens.example.com/api/screenshot/diff/${path.replace(/\W/g, '')}/${kind}`;
const comparison = (path: string, ratio: number, pass: boolean): ComparisonView => ({
  path,
  viewport: { width: 1280, height: 720 },
  previewUrl: `https://preview.example.com${path}`,
  diff: { changed_ratio: ratio, changed_pixels: Math.round(ratio * 1280 * 720), images: { baseline: image(path, 'baseline'), candidate: image(path, 'candidate'), diff: image(path, 'diff') } },
  pass,
});
const report = (comparisons: ComparisonView[]): DiffReportView => ({
  comparisons,
  maxChangedRatio: 0.001,
  changed: comparisons.filter((c) => c.diff && !c.pass).length,
  errors: comparisons.filter((c) => c.error).length,
  pass: comparisons.every((c) => c.pass),
});
const options = { baselineUrl: 'https://www.example.com', previewUrl: 'https://preview.example.com' };

describe('report-markdown screenshot diff', () => {
  it('changed comparisons show baseline, preview and diff side by side; failed ones their reason; the rest folded', () => {
    const md = renderScreenshotDiff(
      report([comparison('/pricing', 0.25, false), comparison('/', 0, true), comparison('/about', 0.0004, true), { path: '/down', viewport: { width: 1280, height: 720 }, previewUrl: 'https://preview.example.com/down', error: 'POST /api/screenshot/diff failed (502): candidate_url: refused', pass: false }]),
      options,
    );
    expect(md.split('\n')[0]).to.equal('### ❌ Screenshot diff: 1 of 4 changed, 1 could not be compared');
    const tables = marked.lexer(md).filter((t): t is Tokens.Table => t.type === 'table');
    expect(tables[0].header.map((h) => h.text)).to.deep.equal(['Page', 'Changed', 'Baseline', 'Preview', 'Diff']);
    expect(tables[0].rows[0].slice(2).map((c) => /src="([^"]+)"/.exec(c.text)?.[1])).to.deep.equal([image('/pricing', 'baseline'), image('/pricing', 'candidate'), image('/pricing', 'diff')]);
    expect(tables[1].rows[0][2].text).to.include('candidate\\_url: refused');
    expect(md).to.include('<details><summary>Within the gate (2)</summary>');
    expect(md.indexOf('#### Changed')).to.be.lessThan(md.indexOf('<details>'));
  });

  it('500 changed comparisons: under 65,536 characters, counting the ones left out', () => {
    const md = renderScreenshotDiff(report(Array.from({ length: 500 }, (_, i) => comparison(`/page/${i}`, 0.5, false))), options);
    expect(md.length).to.be.at.most(65_536);
    const shown = marked.lexer(md).filter((t): t is Tokens.Table => t.type === 'table')[0].rows.length;
    const cut = Number(/: (\d+) changed comparisons\./.exec(md)?.[1]);
    expect(shown + cut).to.equal(500);
  });
});
