import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { startTestService, type TestService } from '../support/service.js';
import { startPreviewFixture, type PreviewFixture } from '../compare/preview-fixture.js';
import { startArtifactService } from './support/artifact-service.js';
import { startGithubStandIn } from './support/github-stand-in.js';
import { runAction } from './support/run-action.js';

/** The cells of a Markdown table row, `| a | b |` → ['a', 'b']. */
const cells = (line: string) => line.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, '').trim());

describe('actions/preview-report (dist bundle, as the runner runs it, against the running service and a worker)', function () {
  this.timeout(120_000);
  let svc: TestService;
  let gh: Awaited<ReturnType<typeof startGithubStandIn>>;
  let artifacts: Awaited<ReturnType<typeof startArtifactService>>;
  let site: PreviewFixture;
  let key: string;
  const ctx = (pullRequest: number) => ({
    repository: 'acme/site',
    githubApiUrl: gh.url,
    pullRequest,
    job: 'preview',
    actionsRuntime: { ACTIONS_RUNTIME_TOKEN: artifacts.runtimeToken, ACTIONS_RESULTS_URL: artifacts.url },
  });
  const inputs = (extra: Record<string, string>) => ({
    baseline_url: site.production.url,
    preview_url: site.preview.url,
    viewports: '400x300',
    api_url: svc.url,
    api_key: key,
    github_token: 'ghs_test',
    ...extra,
  });

  before(async () => {
    site = await startPreviewFixture();
    gh = await startGithubStandIn();
    artifacts = await startArtifactService();
    svc = await startTestService({}, { workers: true });
    // As `serve` does at start: compiling the fingerprints blocks the loop for a moment.
    await svc.deps.techDetector.ready();
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await gh?.close();
    await artifacts?.close();
    await site?.close();
  });

  it('a preview with planted regressions: progress lines, one comment with a row per check, the report as an artifact, and the step fails', async () => {
    const run = await runAction('actions/preview-report', inputs({}), ctx(21));

    expect(run.code, run.stdout + run.stderr).to.equal(1);
    expect(run.stdout).to.match(/Comparison [0-9a-f-]{36} queued \(links, seo, perf, techstack, tls, visual on 1 path\(s\); counts 12 requests\)/);
    expect(run.stdout).to.match(/\[\d+\/11\] done: /);
    expect(run.outputs).to.include({ verdict: 'regressed', regressions: '5', pass: 'false' });
    expect(Number(run.outputs.health_preview)).to.be.lessThan(Number(run.outputs.health_baseline));
    expect(run.commands.at(-1)).to.equal('::error::Preview report: 5 regressions in broken links, SEO, performance, visual (set fail_on: never to report without failing).');

    expect(gh.comments).to.have.length(1);
    const body = gh.comments[0].body;
    const lines = body.split('\n');
    expect(lines[0]).to.match(/^<!-- sitelens:preview-report key=preview-[0-9a-f]{10} -->$/);
    expect(lines[1]).to.equal('### ❌ Preview report: 5 regressions in broken links, SEO, performance, visual');
    const rows = Object.fromEntries(lines.filter((l) => /^\| (Broken links|SEO|Performance|Tech stack|TLS|Visual) \|/.test(l)).map((l) => [cells(l)[0], cells(l).slice(1)]));
    expect(rows['Broken links']).to.deep.equal(['1 broken of 5', '2 broken of 6', '1 new broken', '❌']);
    expect(rows.SEO.slice(2)).to.deep.equal(['1 check regressed', '❌']);
    expect(rows.Performance[2]).to.equal('worse: grade, bytes');
    expect(rows.Performance[3]).to.equal('❌');
    expect(rows['Tech stack']).to.deep.equal(['1 technology', '1 technology', '1 version changed', '⚠️']);
    expect(rows.TLS).to.deep.equal(['not https', 'not https', 'not compared', '⚠️']);
    expect(rows.Visual).to.deep.equal(['1 screenshot', '1 screenshot', '1 of 1 changed', '❌']);
    expect(body).to.include('<details open><summary>SEO: 1 regression');
    expect(body).to.match(/\| ❌ \| `\/` \| `meta_description` \| regressed \| no meta description \|/);
    expect(body).to.match(/\|  \| jQuery \| 3\.6\.0 \| 3\.7\.1 \| version changed \|/);
    expect(body, 'the diff image inline').to.match(/<img src="http:\/\/127\.0\.0\.1:\d+\/api\/screenshot\/diff\/[\w-]{22}\/diff" width="220" alt="diff of \/">/);
    expect(body, 'the trend picture').to.match(/<img src="http:\/\/127\.0\.0\.1:\d+\/api\/compare\/trend\/[\w-]{22}\/image" width="480"/);

    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    const [artifact] = artifacts.artifacts;
    expect(artifact.name).to.match(/^sitelens-preview-report-preview-[0-9a-f]{10}\.json$/);
    expect(JSON.parse(artifact.content.toString('utf8'))).to.deep.equal(report);
    expect(run.summary).to.include(`Full report: [${artifact.name}](${run.outputs.artifact_url}) (workflow artifact, JSON).`);
    expect(run.summary.split('\n')[0]).to.equal('### ❌ Preview report: 5 regressions in broken links, SEO, performance, visual');
  });

  it('the same regressions with fail_on: never report without failing', async () => {
    const run = await runAction('actions/preview-report', inputs({ fail_on: 'never', checks: 'links,seo', comment: 'false' }), ctx(21));
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ verdict: 'regressed', regressions: '2', pass: 'false' });
  });

  it('production against its twin: no regression passes the gate, and the same comment is updated with the second run in its trend', async () => {
    const run = await runAction('actions/preview-report', inputs({ preview_url: site.twin.url }), ctx(21));
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ verdict: 'unchanged', regressions: '0', pass: 'true' });
    expect(gh.comments).to.have.length(1);
    expect(gh.commentCalls().at(-1)).to.equal(`PATCH /repos/acme/site/issues/comments/${gh.comments[0].id}`);
    expect(gh.comments[0].body.split('\n')[1]).to.equal('### ✅ Preview report: No differences');
    expect(gh.comments[0].body).to.match(/alt="Health score of production and preview over the last 3 runs"/);
  });

  it('a free key: the API\'s 402 is the step\'s error, naming how to get a paid tier', async () => {
    const free = await svc.newKey();
    const run = await runAction('actions/preview-report', inputs({ api_key: free, comment: 'false' }), ctx(22));
    expect(run.code).to.equal(1);
    expect(run.commands.at(-1)).to.match(/^::error::POST \/api\/compare failed \(402\): .*paid tier/);
  });

  it('the suite entry (action.yml, check: preview-report) gives that check\'s own outputs: verdict, regressions, both health scores', async () => {
    const run = await runAction('.', inputs({ check: 'preview-report', fail_on: 'never', checks: 'links,seo', comment: 'false' }), ctx(22));
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ verdict: 'regressed', regressions: '2', pass: 'false' });
    expect(Number(run.outputs.health_preview)).to.be.lessThan(Number(run.outputs.health_baseline));
    expect(JSON.parse(await readFile(run.outputs.report, 'utf8'))).to.have.property('verdict', 'regressed');
  });
});
