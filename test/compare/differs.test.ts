import { expect } from 'chai';
import { buildReport, type CompareInput } from '../../server/compare/compare-report.js';
import { diffLinks } from '../../server/compare/links-diff.js';
import { diffPerf } from '../../server/compare/perf-diff.js';
import { diffSeo } from '../../server/compare/seo-diff.js';
import { diffTechstack } from '../../server/compare/techstack-diff.js';
import { diffTls } from '../../server/compare/tls-diff.js';
import { diffVisual } from '../../server/compare/visual-diff.js';
import type { DeadLinkReport } from '../../server/links/report.js';
import type { PerfSide } from '../../server/compare/types.js';
import type { SeoReport } from '../../server/seo/seo-audit.js';
import type { TechstackReport } from '../../server/techstack/techstack-check.js';
import type { TlsReport } from '../../server/tls/tls-check.js';

// Only the fields the differs read; the rest of each report is irrelevant to them.
const links = (origin: string, broken: string[], checked = 10) =>
  ({
    broken_links: broken.map((p) => ({ url: `${origin}${p}`, status: 404, kind: 'http_404', found_on: [`${origin}/`] })),
    broken_count: broken.length,
    total_links_checked: checked,
    summary: { health_score: Math.round(1000 * (1 - broken.length / checked)) / 10 },
  }) as unknown as DeadLinkReport;
const seo = (score: number, pass: Record<string, boolean>) =>
  ({ score, checks: Object.fromEntries(Object.entries(pass).map(([k, p]) => [k, { pass: p, message: `${k} ${p ? 'ok' : 'fails'}`, weight: 5 }])) }) as unknown as SeoReport;
const perf = (grade: string, ms: number, bytes: number, requests: number): PerfSide =>
  ({ report: { grade, score: 90, response_time_ms: ms, transfer_size_bytes: bytes }, requests }) as unknown as PerfSide;
const tech = (techs: Record<string, string | null>) =>
  ({ technologies: { Libraries: Object.entries(techs).map(([name, version]) => ({ name, version })) } }) as unknown as TechstackReport;
const tls = (grade: string) => ({ grade }) as unknown as TlsReport;
const failure = { error: 'the connection was refused', kind: 'refused' };

describe('compare differs (unit)', () => {
  it('diffLinks: a link broken only on the preview is a regression; one broken on both is not; one fixed is an improvement', () => {
    const row = diffLinks(links('https://prod.test', ['/gone', '/old']), links('https://pr-1.test', ['/gone', '/new']), { baseline: 'https://prod.test/', preview: 'https://pr-1.test/' });
    expect(row.items.map((i: any) => [i.kind, new URL(i.url).pathname, i.regression])).to.deep.equal([
      ['still_broken', '/gone', false],
      ['new_broken', '/new', true],
      ['fixed', '/old', false],
    ]);
    expect(row).to.include({ status: 'regressed', regressions: 1, improvements: 1, change: '1 new broken, 1 fixed' });
  });

  it('diffLinks: a check that fails on the preview only is a regression; on both, unavailable', () => {
    expect(diffLinks(links('https://a.test', []), failure, { baseline: 'https://a.test', preview: 'https://b.test' })).to.include({ status: 'regressed', regressions: 1 });
    expect(diffLinks(failure, failure, { baseline: 'https://a.test', preview: 'https://b.test' })).to.include({ status: 'unavailable', regressions: 0 });
  });

  it('diffSeo: pass → fail regressed, fail → pass improved, fail on both still failing (not a regression)', () => {
    const row = diffSeo({ '/': seo(90, { meta_description: true, robots_txt: false, hreflang: false }) }, { '/': seo(84, { meta_description: false, robots_txt: false, hreflang: true }) });
    expect(row.items.map((i: any) => [i.check, i.kind, i.regression])).to.deep.equal([
      ['meta_description', 'regressed', true],
      ['robots_txt', 'still_failing', false],
      ['hreflang', 'improved', false],
    ]);
    expect(row.scores).to.deep.equal({ baseline: 90, preview: 84 });
  });

  it('diffPerf: more bytes past both tolerances and a lower grade regress; small timing noise does not', () => {
    const row = diffPerf({ '/': perf('A', 100, 20_000, 5) }, { '/': perf('B', 300, 60_000, 6) });
    expect(row.items.map((i: any) => [i.metric, i.delta, i.regression])).to.deep.equal([
      ['grade', 1, true],
      ['response_time_ms', 200, false],
      ['transfer_size_bytes', 40_000, true],
      ['requests', 1, false],
    ]);
    const faster = diffPerf({ '/': perf('B', 2_000, 20_000, 10) }, { '/': perf('B', 900, 20_000, 4) });
    expect(faster).to.include({ status: 'improved', regressions: 0, improvements: 2 });
  });

  it('diffTechstack: added, removed and upgraded are changes; a downgrade is a regression', () => {
    const row = diffTechstack(tech({ jQuery: '3.6.0', React: '18.2.0', Bootstrap: null }), tech({ jQuery: '3.7.1', React: '17.0.2', Vue: '3.4.0' }));
    expect(row.items.map((i: any) => [i.kind, i.name, i.regression])).to.deep.equal([
      ['version_changed', 'jQuery', false],
      ['version_changed', 'React', true],
      ['added', 'Vue', false],
      ['removed', 'Bootstrap', false],
    ]);
    expect(diffTechstack(tech({ jQuery: '3.6.0' }), tech({ jQuery: '3.7.1' })).status).to.equal('changed');
  });

  it('diffTls: a lower grade and a handshake failing on the preview regress; http on both is unavailable', () => {
    expect(diffTls(tls('A'), tls('B')).items).to.deep.equal([{ kind: 'grade_changed', baseline_grade: 'A', preview_grade: 'B', message: 'grade A → B', regression: true }]);
    expect(diffTls(tls('B'), tls('A+'))).to.include({ status: 'improved' });
    expect(diffTls(tls('A'), failure)).to.include({ status: 'regressed', regressions: 1 });
    expect(diffTls(null, null)).to.include({ status: 'unavailable' });
  });

  it('diffVisual: over the gate is a regression; a render failing on the preview too; one failing on the baseline is a note', () => {
    const images = { baseline: 'b', candidate: 'c', diff: 'd' };
    const row = diffVisual(
      [
        { path: '/', width: 1280, height: 720, changed_ratio: 0.2, changed_pixels: 9, images },
        { path: '/a', width: 1280, height: 720, changed_ratio: 0.0005, changed_pixels: 1, images },
        { path: '/b', width: 1280, height: 720, error: 'candidate_url: target unreachable', kind: 'unavailable' },
        { path: '/c', width: 1280, height: 720, error: 'baseline_url: target unreachable', kind: 'unavailable' },
      ],
      0.001,
    );
    expect(row.items.map((i: any) => [i.path, i.regression])).to.deep.equal([['/', true], ['/a', false], ['/b', true]]);
    expect(row.notes).to.have.length(2);
  });

  it('buildReport: verdict, headline and the health score as the mean of the checks that scored both sides', () => {
    const input: CompareInput = { baseline_url: 'https://a.test/', preview_url: 'https://b.test/', paths: ['/'], checks: ['links', 'tls', 'techstack'], viewports: [], max_changed_ratio: 0.001 };
    const results = [
      diffLinks(links('https://a.test', [], 10), links('https://b.test', ['/x'], 10), { baseline: 'https://a.test/', preview: 'https://b.test/' }),
      diffTls(tls('A'), tls('A')),
      diffTechstack(tech({ jQuery: '3.6.0' }), tech({ jQuery: '3.7.1' })),
    ];
    const r = buildReport(input, results, new Date());
    expect(r).to.include({ verdict: 'regressed', regressions: 1, headline: '1 regression in broken links' });
    expect(r.health).to.deep.equal({ baseline: 97.5, preview: 92.5, delta: -5 });
    const calm = buildReport(input, results.slice(1), new Date());
    expect(calm).to.include({ verdict: 'changed', headline: 'No regressions; changes to review in tech stack' });
  });
});
