import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { startTestService, type TestService } from '../support/service.js';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { startGithubStandIn } from './support/github-stand-in.js';
import { runBundle } from './support/run-bundle.js';

const page = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;background:#fff}</style></head><body>${body}</body></html>`;
const header = '<div style="width:200px;height:60px;background:#224"></div>';

describe('actions/screenshot-diff (dist bundle, as the runner runs it)', function () {
  this.timeout(60_000);
  let svc: TestService;
  let production: FixtureServer;
  let preview: FixtureServer;
  let gh: Awaited<ReturnType<typeof startGithubStandIn>>;
  let key: string;
  const ctx = () => ({ repository: 'acme/site', githubApiUrl: gh.url, pullRequest: 12 });
  const inputs = (extra: Record<string, string>) => ({
    baseline_url: production.url,
    preview_url: preview.url,
    viewports: '400x300',
    full_page: 'false',
    api_url: svc.url,
    api_key: key,
    github_token: 'ghs_test',
    ...extra,
  });

  before(async () => {
    production = await serve({ '/': page(header), '/pricing': page(header) });
    preview = await serve({
      '/': page(header),
      '/pricing': page(`${header}<div style="width:300px;height:100px;background:#0a0"></div>`),
    });
    gh = await startGithubStandIn();
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await gh?.close();
    await Promise.all([production?.close(), preview?.close()]);
  });

  it('identical pages: ratio 0, the step passes, table in the summary, PR comment created', async () => {
    const run = await runBundle('screenshot-diff', inputs({ paths: '/', viewports: '400x300, 320x240' }), ctx());

    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ changed: '0', max_changed_ratio: '0', pass: 'true' });
    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    expect(report.comparisons.map((c: any) => [c.path, `${c.viewport.width}x${c.viewport.height}`, c.diff.changed_ratio])).to.deep.equal([
      ['/', '400x300', 0],
      ['/', '320x240', 0],
    ]);
    expect(run.summary).to.include('### ✅ Screenshot diff: no visual change over 0.1000 % in 2 comparisons');
    expect(run.summary).to.match(/\| `\/` \| 400×300 \| 0\.00 %<br><sub>0 px<\/sub> \| <a href="http:\/\/127\.0\.0\.1:\d+\/api\/screenshot\/diff\/[\w-]{22}\/diff"><img /);
    expect(gh.commentCalls()).to.deep.equal(['GET /repos/acme/site/issues/12/comments', 'POST /repos/acme/site/issues/12/comments']);
    expect(gh.comments[0].body).to.match(/^<!-- sitelens:screenshot-diff -->\n### ✅/);
  });

  it('a changed block over the gate: the step fails, the diff image shows it in red, the comment is updated', async () => {
    const run = await runBundle('screenshot-diff', inputs({ paths: '/\n/pricing' }), ctx());

    expect(run.code, run.stdout + run.stderr).to.equal(1);
    expect(run.outputs).to.include({ changed: '1', pass: 'false', max_changed_ratio: '0.25' });
    expect(run.summary).to.include('### ❌ Screenshot diff: 1 of 2 changed');
    expect(run.summary).to.match(/\| `\/pricing` \| 400×300 \| 25\.00 %<br><sub>30,000 px<\/sub> \| .* \| ❌ \|/);
    expect(run.commands).to.include('::error::Screenshot diff: 1 comparison(s) changed more than 0.001.');
    expect(run.commands.some((c) => c.startsWith('::error title=Visual change%3A /pricing at 400x300::25.0000 %25 of pixels changed')), run.stdout).to.equal(true);

    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    const changed = report.comparisons.find((c: any) => c.path === '/pricing');
    const res = await fetch(changed.diff.images.diff);
    expect(res.headers.get('content-type')).to.equal('image/png');
    const { data, info } = await sharp(Buffer.from(await res.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
    let red = 0;
    for (let i = 0; i < data.length; i += info.channels) if (data[i] === 255 && data[i + 1] === 0 && data[i + 2] === 0) red++;
    expect(red).to.equal(300 * 100);

    expect(gh.comments).to.have.length(1);
    expect(gh.commentCalls().at(-1)).to.equal(`PATCH /repos/acme/site/issues/comments/${gh.comments[0].id}`);
    expect(gh.comments[0].body).to.include('### ❌ Screenshot diff: 1 of 2 changed');
  });

  it('a looser gate passes the same change', async () => {
    const run = await runBundle('screenshot-diff', inputs({ paths: '/pricing', max_changed_ratio: '0.3', comment: 'false' }), ctx());
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ changed: '0', pass: 'true', max_changed_ratio: '0.25' });
  });

  it('an unreachable preview is a failed row with the API\'s message, and fails the step', async () => {
    const run = await runBundle('screenshot-diff', inputs({ paths: '/', preview_url: 'http://127.0.0.1:9', comment: 'false' }), ctx());
    expect(run.code).to.equal(1);
    expect(run.summary).to.include('#### Comparisons that failed');
    expect(run.summary).to.match(/POST \/api\/screenshot\/diff failed \(502\): candidate_url: /);
  });
});
