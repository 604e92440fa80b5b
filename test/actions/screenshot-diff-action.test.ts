import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { freePort, type TestService } from '../support/service.js';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { actionTestbed, type ActionTestbed } from './support/testbed.js';
import { runAction } from './support/run-action.js';

const page = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;background:#fff}</style></head><body>${body}</body></html>`;
const header = '<div style="width:200px;height:60px;background:#224"></div>';

describe('actions/screenshot-diff (dist bundle, as the runner runs it)', function () {
  this.timeout(60_000);
  let svc: TestService;
  let production: FixtureServer;
  let preview: FixtureServer;
  let gh: ActionTestbed['gh'];
  let key: string;
  let bed: ActionTestbed;
  const ctx = (pullRequest = 12) => ({ repository: 'acme/site', githubApiUrl: gh.url, pullRequest, job: 'diff' });
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
    ({ svc, gh, key } = bed = await actionTestbed());
  });
  after(async () => {
    await bed?.close();
    await Promise.all([production?.close(), preview?.close()]);
  });

  it('identical pages: ratio 0, the step passes, table in the summary, PR comment created', async () => {
    const run = await runAction('actions/screenshot-diff', inputs({ paths: '/', viewports: '400x300, 320x240' }), ctx());

    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ changed: '0', max_changed_ratio: '0', pass: 'true' });
    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    expect(report.comparisons.map((c: any) => [c.path, `${c.viewport.width}x${c.viewport.height}`, c.diff.changed_ratio])).to.deep.equal([
      ['/', '400x300', 0],
      ['/', '320x240', 0],
    ]);
    expect(run.summary.split('\n')[0]).to.equal('### ✅ Screenshot diff: no change over 0.1000 % in 2 comparisons');
    expect(run.summary).to.include('<details><summary>Within the gate (2)</summary>');
    expect(run.summary).to.match(/\| `\/` \| 400×300 \| 0\.00 % \| \[baseline\]\(http:\/\/127\.0\.0\.1:\d+\/api\/screenshot\/diff\/[\w-]{22}\/baseline\) · \[preview\]\(.*\) · \[diff\]\(.*\/diff\) \|/);
    expect(run.summary).not.to.include('#### Changed');
    expect(gh.commentCalls()).to.deep.equal(['GET /repos/acme/site/issues/12/comments', 'POST /repos/acme/site/issues/12/comments']);
    expect(gh.comments[0].body).to.match(/^<!-- sitelens:screenshot-diff key=diff-[0-9a-f]{10} -->\n### ✅/);
  });

  it('a changed block over the gate: the step fails, the diff image shows it in red, the comment is updated', async () => {
    const run = await runAction('actions/screenshot-diff', inputs({ paths: '/\n/pricing' }), ctx());

    expect(run.code, run.stdout + run.stderr).to.equal(1);
    expect(run.outputs).to.include({ changed: '1', pass: 'false', max_changed_ratio: '0.25' });
    expect(run.summary.split('\n')[0]).to.equal('### ❌ Screenshot diff: 1 of 2 changed');
    const img = (kind: string) => `<a href="[^"]+/${kind}"><img src="[^"]+/${kind}" width="220" alt="${kind === 'candidate' ? 'preview' : kind} of /pricing at 400×300"></a>`;
    expect(run.summary, 'baseline | preview | diff side by side').to.match(
      new RegExp(`\\| \`/pricing\`<br>400×300 \\| 25\\.00 %<br><sub>30,000 px</sub> \\| ${img('baseline')} \\| ${img('candidate')} \\| ${img('diff')} \\|`),
    );
    expect(run.summary).to.include('<details><summary>Within the gate (1)</summary>');
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
    const run = await runAction('actions/screenshot-diff', inputs({ paths: '/pricing', max_changed_ratio: '0.3', comment: 'false' }), ctx());
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ changed: '0', pass: 'true', max_changed_ratio: '0.25' });
  });

  it('an unreachable preview is a failed row with the API\'s message, and fails the step', async () => {
    const run = await runAction('actions/screenshot-diff', inputs({ paths: '/', preview_url: 'http://127.0.0.1:9', comment: 'false' }), ctx());
    expect(run.code).to.equal(1);
    expect(run.summary).to.include('#### Could not compare (1)');
    expect(run.summary).to.match(/POST \/api\/screenshot\/diff failed \(502\): candidate\\_url: /);
  });

  it('the API unreachable: the previous table stays, under one line saying this run failed and why (no rows of n/a)', async () => {
    const good = await runAction('actions/screenshot-diff', inputs({ paths: '/\n/pricing', max_changed_ratio: '0.3' }), ctx(13));
    expect(good.code, good.stdout).to.equal(0);
    const comment = () => gh.comments.find((c) => c.issue === 13)?.body ?? '';
    const table = comment().split('\n').slice(1).join('\n');

    const deadApi = `http://127.0.0.1:${await freePort()}`;
    const down = await runAction('actions/screenshot-diff', inputs({ paths: '/\n/pricing', api_url: deadApi }), ctx(13));
    expect(down.code).to.equal(1);
    expect(down.commands.at(-1)).to.equal(`::error::POST /api/screenshot/diff: could not reach the SiteLens API at ${deadApi} (ECONNREFUSED)`);
    const body = comment();
    expect(body).to.match(/^<!-- sitelens:screenshot-diff key=diff-[0-9a-f]{10} -->\n<!-- sitelens:run-failed -->\n> \[!WARNING\]\n> \*\*Screenshot diff: this run failed\.\*\* POST \/api\/screenshot\/diff: could not reach/);
    expect(body.endsWith(table)).to.equal(true);
    expect(body).not.to.include('n/a');
    expect(gh.comments.filter((c) => c.issue === 13)).to.have.length(1);
  });
});
