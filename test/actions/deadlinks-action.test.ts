import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { startTestService, type TestService } from '../support/service.js';
import { html, serve, status, type FixtureServer } from '../links/fixture-site.js';
import { startGithubStandIn } from './support/github-stand-in.js';
import { runBundle } from './support/run-bundle.js';

describe('actions/deadlinks (dist bundle, as the runner runs it)', function () {
  this.timeout(60_000);
  let svc: TestService;
  let site: FixtureServer;
  let gh: Awaited<ReturnType<typeof startGithubStandIn>>;
  let key: string;
  const ctx = () => ({ repository: 'acme/site', githubApiUrl: gh.url, pullRequest: 7 });
  const inputs = (extra: Record<string, string> = {}) => ({
    url: `${site.url}/`,
    mode: 'quick',
    api_url: svc.url,
    api_key: key,
    github_token: 'ghs_test',
    ...extra,
  });

  before(async () => {
    site = await serve({
      '/': html('<a href="/ok">ok</a> <a href="/gone">gone</a> <a href="/missing">missing</a> <a href="/fine">fine</a>'),
      '/ok': html('ok'),
      '/fine': html('fine'),
      '/gone': status(410),
    });
    gh = await startGithubStandIn({
      readmes: {
        'acme/docs': ['# Docs', '', `Read [the guide](${site.url}/ok).`, `Old: [gone](${site.url}/gone)`].join('\n'),
      },
    });
    svc = await startTestService({ GITHUB_API_URL: gh.url });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await gh?.close();
    await site?.close();
  });

  it('broken links without a gate: annotations, summary, outputs, JSON report, PR comment created; the step fails', async () => {
    const run = await runBundle('deadlinks', inputs(), ctx());

    expect(run.code, run.stdout + run.stderr).to.equal(1);
    expect(run.outputs).to.include({ broken_count: '2', pass: 'false', health_score: '50' });
    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    expect(report.broken_links.map((i: { url: string }) => i.url)).to.deep.equal([`${site.url}/gone`, `${site.url}/missing`]);

    expect(run.summary).to.include('### ❌ Dead links: 2 broken of 4 checked');
    expect(run.summary).to.include('Gate: no broken links: **failed**');
    expect(run.summary).to.match(/\| \[http:\/\/127\.0\.0\.1:\d+\/gone\]\(http:\/\/127\.0\.0\.1:\d+\/gone\) \| `410` \| internal \|/);

    const errors = run.commands.filter((c) => c.startsWith('::error'));
    expect(errors).to.have.length(3); // two links, then the step's failure
    expect(errors[0]).to.equal(`::error title=Broken link::Broken link ${site.url}/gone (410) on ${site.url}/`);
    expect(errors[2]).to.equal('::error::2 broken link(s) found (set fail_on: never to report without failing).');

    expect(gh.commentCalls()).to.deep.equal(['GET /repos/acme/site/issues/7/comments', 'POST /repos/acme/site/issues/7/comments']);
    expect(gh.calls.at(-1)?.auth).to.equal('token ghs_test');
    expect(gh.comments).to.have.length(1);
    expect(gh.comments[0].body).to.match(/^<!-- sitelens:deadlinks -->\n### ❌ Dead links: 2 broken/);
  });

  it('a gate that holds passes the step and updates the same comment (no duplicate)', async () => {
    const before = gh.commentCalls().length;
    const run = await runBundle('deadlinks', inputs({ threshold: '40', max_broken: '2' }), ctx());

    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ pass: 'true', broken_count: '2' });
    expect(run.summary).to.include('Gate: health score ≥ 40 and at most 2 broken: **passed**');
    expect(gh.commentCalls().slice(before)).to.deep.equal([
      'GET /repos/acme/site/issues/7/comments',
      `PATCH /repos/acme/site/issues/comments/${gh.comments[0].id}`,
    ]);
    expect(gh.comments).to.have.length(1);
    expect(gh.comments[0].body).to.include('### ✅ Dead links: 2 broken of 4 checked');
  });

  it('a gate that does not hold fails the step; fail_on: never only reports', async () => {
    const failing = await runBundle('deadlinks', inputs({ threshold: '90', comment: 'false' }), ctx());
    expect(failing.code).to.equal(1);
    expect(failing.outputs.pass).to.equal('false');
    expect(failing.commands.at(-1)).to.equal('::error::Dead-link gate failed: health score 50, 2 broken link(s).');

    const reportOnly = await runBundle('deadlinks', inputs({ threshold: '90', comment: 'false', fail_on: 'never' }), ctx());
    expect(reportOnly.code).to.equal(0);
    expect(reportOnly.outputs.pass).to.equal('false');
  });

  it('annotations past max_annotations are counted in one notice', async () => {
    const run = await runBundle('deadlinks', inputs({ max_annotations: '1', comment: 'false', fail_on: 'never' }), ctx());
    expect(run.commands.filter((c) => c.startsWith('::error title=Broken link'))).to.have.length(1);
    expect(run.commands).to.include('::notice::1 more broken links not annotated; the job summary lists all of them.');
  });

  it('without url or github: checks the current repository README, annotating file and line', async () => {
    const run = await runBundle('deadlinks', inputs({ url: '', comment: 'false' }), { ...ctx(), repository: 'acme/docs' });
    expect(run.code, run.stdout + run.stderr).to.equal(1);
    expect(run.commands[0], run.stdout).to.match(/^::error title=Broken link,file=README\.md,line=4::Broken link http:\/\/127\.0\.0\.1:\d+\/gone \(410\)$/);
    expect(run.summary).to.include('**README.md**');
    expect(run.summary).to.include('(line 4)');
    const readmeCall = gh.calls.find((c) => c.path === '/repos/acme/docs/readme');
    expect(readmeCall?.query, 'the README as the pull request changes it').to.equal('ref=sha-of-pr-7');
  });

  it('an API error fails the step with the API\'s message', async () => {
    const run = await runBundle('deadlinks', inputs({ api_key: 'sl_not_a_key', comment: 'false' }), ctx());
    expect(run.code).to.equal(1);
    expect(run.commands.at(-1)).to.match(/^::error::GET \/api\/deadlinks\?.* failed \(401\): /);
  });
});
