import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { marked, type Tokens } from 'marked';
import type { TestService } from '../support/service.js';
import { html, serve, status, type FixtureServer } from '../links/fixture-site.js';
import { startArtifactService } from './support/artifact-service.js';
import { actionTestbed, type ActionTestbed } from './support/testbed.js';
import { runAction } from './support/run-action.js';

describe('actions/deadlinks on a site (dist bundle, as the runner runs it)', function () {
  this.timeout(60_000);
  let svc: TestService;
  let site: FixtureServer;
  let gh: ActionTestbed['gh'];
  let bed: ActionTestbed;
  let artifacts: Awaited<ReturnType<typeof startArtifactService>>;
  let key: string;
  const ctx = (extra = {}) => ({ repository: 'acme/site', githubApiUrl: gh.url, pullRequest: 7, ...extra });
  const withArtifacts = () => ({ actionsRuntime: { ACTIONS_RUNTIME_TOKEN: artifacts.runtimeToken, ACTIONS_RESULTS_URL: artifacts.url } });
  const inputs = (extra: Record<string, string> = {}) => ({
    url: `${site.url}/`,
    mode: 'quick',
    api_url: svc.url,
    api_key: key,
    github_token: 'ghs_installation',
    // The upload step is exercised where it matters; elsewhere it would only add a process per run.
    artifact: 'false',
    ...extra,
  });

  before(async () => {
    const many = Array.from({ length: 1000 }, (_, i) => `<a href="/missing/${i}/${'segment/'.repeat(i % 7)}page">${i}</a>`).join('\n');
    site = await serve({
      '/': html('<a href="/ok">ok</a> <a href="/gone">gone</a> <a href="/missing">missing</a> <a href="/fine">fine</a>'),
      '/ok': html('ok'),
      '/fine': html('fine'),
      '/gone': status(410),
      '/many': html(many),
    });
    ({ svc, gh, key } = bed = await actionTestbed({
      readmes: { 'acme/docs': ['# Docs', '', `Read [the guide](${site.url}/ok).`, `Old: [gone](${site.url}/gone)`].join('\n') },
    }));
    artifacts = await startArtifactService();
  });
  after(async () => {
    await bed?.close();
    await artifacts?.close();
    await site?.close();
  });

  it('broken links without a gate: annotations, summary with the commit and run, outputs, the report as an artifact, a PR comment by the token\'s bot; the step fails', async () => {
    const run = await runAction('actions/deadlinks', inputs({ artifact: 'true' }), ctx(withArtifacts()));

    expect(run.code, run.stdout + run.stderr).to.equal(1);
    expect(run.outputs).to.include({ broken_count: '2', pass: 'false', health_score: '50' });
    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    expect(report.broken_links.map((i: { url: string }) => i.url)).to.deep.equal([`${site.url}/gone`, `${site.url}/missing`]);

    expect(run.summary.split('\n')[0]).to.equal('### ❌ Dead links: 2 broken of 4 links checked');
    expect(run.summary).to.include('Commit [`sha-of-`](https://github.com/acme/site/commit/sha-of-pr-7) · [run 42](https://github.com/acme/site/actions/runs/9000)');
    expect(run.summary).to.include('Gate: no broken links, **failed**.');
    expect(run.summary).to.include(`| <${site.url}/gone> | ❌ \`410\` | <${site.url}/> |`);

    const [artifact] = artifacts.artifacts;
    expect(artifact.name).to.match(/^sitelens-deadlinks-links-[0-9a-f]{10}\.json$/);
    expect(JSON.parse(artifact.content.toString('utf8'))).to.deep.equal(report);
    expect(run.outputs.artifact_url).to.equal(`https://github.com/acme/site/actions/runs/9000/artifacts/${artifact.id}`);
    expect(run.summary).to.include(`Full report: [${artifact.name}](${run.outputs.artifact_url}) (workflow artifact, JSON).`);

    const errors = run.commands.filter((c) => c.startsWith('::error'));
    expect(errors).to.deep.equal([
      `::error title=Broken link::Broken link: ${site.url}/gone (410) on ${site.url}/`,
      `::error title=Broken link::Broken link: ${site.url}/missing (404) on ${site.url}/`,
      '::error::2 broken links found (set fail_on: never to report without failing).',
    ]);

    expect(gh.commentCalls()).to.deep.equal(['GET /repos/acme/site/issues/7/comments', 'POST /repos/acme/site/issues/7/comments']);
    expect(gh.calls.find((c) => c.path === '/graphql')?.auth).to.equal('token ghs_installation');
    expect(gh.comments).to.have.length(1);
    expect(gh.comments[0].user.login).to.equal('github-actions[bot]');
    expect(gh.comments[0].body).to.match(/^<!-- sitelens:deadlinks key=links-[0-9a-f]{10} -->\n### ❌ Dead links: 2 broken/);
  });

  it('a decimal threshold that holds passes calmly and updates the same comment (no duplicate)', async () => {
    const before = gh.commentCalls().length;
    const run = await runAction('actions/deadlinks', inputs({ threshold: '49.5', max_broken: '2' }), ctx());

    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ pass: 'true', broken_count: '2' });
    expect(run.summary.split('\n')[0]).to.equal('### ✅ Dead links: gate passed, 2 broken of 4 links checked');
    expect(run.summary).to.include('Gate: health score ≥ 49.5 and at most 2 broken links, **passed** with a health score of 50; the 2 broken links below are within it.');
    expect(run.commands.filter((c) => c.startsWith('::error')), 'no alarm').to.deep.equal([]);
    expect(run.commands.filter((c) => c.startsWith('::warning title=Broken link'))).to.have.length(2);
    expect(run.stdout).to.include('Dead-link gate passed: health score 50, 2 broken links.');
    expect(gh.commentCalls().slice(before)).to.deep.equal(['GET /repos/acme/site/issues/7/comments', `PATCH /repos/acme/site/issues/comments/${gh.comments[0].id}`]);
    expect(gh.comments).to.have.length(1);
    expect(gh.comments[0].body).to.include('### ✅ Dead links: gate passed');
  });

  it('a gate that does not hold fails the step in one line; fail_on: never only reports', async () => {
    const failing = await runAction('actions/deadlinks', inputs({ threshold: '99.5', comment: 'false' }), ctx());
    expect(failing.code).to.equal(1);
    expect(failing.outputs.pass).to.equal('false');
    expect(failing.commands.at(-1)).to.equal('::error::Dead-link gate failed: health score 50 (needs ≥ 99.5), 2 broken links.');

    const reportOnly = await runAction('actions/deadlinks', inputs({ threshold: '90', comment: 'false', fail_on: 'never' }), ctx());
    expect(reportOnly.code).to.equal(0);
    expect(reportOnly.outputs.pass).to.equal('false');
  });

  it('annotations past max_annotations are counted in one notice; with fail_on: never and no gate, the summary names no gate', async () => {
    const run = await runAction('actions/deadlinks', inputs({ max_annotations: '1', comment: 'false', fail_on: 'never' }), ctx());
    expect(run.commands.filter((c) => c.startsWith('::error title=Broken link'))).to.have.length(1);
    expect(run.commands).to.include('::notice::1 more links not annotated; the job summary lists all of them.');
    expect(run.summary).to.include(`Target: <${site.url}/>.`);
    expect(run.summary).not.to.include('Gate');
  });

  it('two matrix legs (one job, two URLs) keep two comments; each leg\'s re-run edits its own', async () => {
    const pr = { pullRequest: 21, job: 'matrix' };
    const legA = await runAction('actions/deadlinks', inputs({ url: `${site.url}/`, fail_on: 'never' }), ctx(pr));
    const legB = await runAction('actions/deadlinks', inputs({ url: `${site.url}/ok`, fail_on: 'never' }), ctx(pr));
    expect([legA.code, legB.code]).to.deep.equal([0, 0]);
    const mine = () => gh.comments.filter((c) => c.issue === 21);
    expect(mine()).to.have.length(2);
    const [a, b] = mine();
    expect(a.body.split('\n')[0]).not.to.equal(b.body.split('\n')[0]);
    expect(a.body).to.include('2 broken');
    expect(b.body).to.include('none broken');

    await runAction('actions/deadlinks', inputs({ url: `${site.url}/`, threshold: '10' }), ctx(pr));
    expect(mine()).to.have.length(2);
    expect(mine()[0].body).to.include('gate passed');
    expect(mine()[1].body).to.equal(b.body);
  });

  it('a person\'s comment quoting the marker, or another identity\'s, is never edited; the action writes its own', async () => {
    const probe = await runAction('actions/deadlinks', inputs({ fail_on: 'never' }), ctx({ pullRequest: 31 }));
    const marker = gh.comments.find((c) => c.issue === 31)?.body.split('\n')[0] ?? '';
    gh.comments.splice(gh.comments.findIndex((c) => c.issue === 31), 1);
    const quoted = gh.addComment(31, `${marker}\nWhy does the bot say this link is broken?`, 'octocat');
    const otherBot = gh.addComment(31, `${marker}\nold report from another app`, 'other-app[bot]');
    expect(probe.code).to.equal(0);

    await runAction('actions/deadlinks', inputs({ fail_on: 'never' }), ctx({ pullRequest: 31 }));
    const onPr = gh.comments.filter((c) => c.issue === 31);
    expect(onPr).to.have.length(3);
    expect(onPr.find((c) => c.id === quoted.id)?.body).to.equal(`${marker}\nWhy does the bot say this link is broken?`);
    expect(onPr.find((c) => c.id === otherBot.id)?.body).to.equal(`${marker}\nold report from another app`);
    expect(onPr.find((c) => c.user.login === 'github-actions[bot]')?.body.startsWith(`${marker}\n### ❌ Dead links`)).to.equal(true);
  });

  it('a personal token: its user (from GraphQL viewer) owns the comment it edits', async () => {
    const first = await runAction('actions/deadlinks', inputs({ github_token: 'ghp_alice', fail_on: 'never' }), ctx({ pullRequest: 41 }));
    expect(first.code).to.equal(0);
    await runAction('actions/deadlinks', inputs({ github_token: 'ghp_alice', fail_on: 'never', threshold: '10' }), ctx({ pullRequest: 41 }));
    const onPr = gh.comments.filter((c) => c.issue === 41);
    expect(onPr.map((c) => c.user.login)).to.deep.equal(['alice']);
    expect(onPr[0].body).to.include('gate passed');
  });

  it('without an artifact service: the upload step fails softly, the summary says so, and the run passes or fails on the links alone', async () => {
    const run = await runAction('actions/deadlinks', inputs({ comment: 'false', fail_on: 'never', artifact: 'true' }), ctx());
    expect(run.code).to.equal(0);
    expect(run.steps.upload.outcome).to.equal('failure');
    expect(run.stdout).to.include('::error::Unable to get the ACTIONS_RUNTIME_TOKEN env variable');
    expect(run.outputs.artifact_url).to.equal('');
    expect(run.commands.some((c) => /^::warning::The JSON report was not uploaded as an artifact\. It is at /.test(c)), run.stdout).to.equal(true);
    expect(run.summary).to.include('The JSON report could not be uploaded as a workflow artifact (see the upload step\'s log');
  });

  it('artifact: false skips the upload step', async () => {
    const run = await runAction('actions/deadlinks', inputs({ comment: 'false', fail_on: 'never' }), ctx());
    expect(run.code).to.equal(0);
    expect(run.steps.upload.outcome).to.equal('skipped');
    expect(run.summary).not.to.include('artifact');
  });

  it('1,000 broken links: the comment stays under 65,536 characters, worst first, folded, counting what it cut and linking the artifact', async () => {
    const run = await runAction('actions/deadlinks', inputs({ url: `${site.url}/many`, max_duration: '120', artifact: 'true' }), ctx({ pullRequest: 51, ...withArtifacts() }));
    expect(run.code, run.stderr).to.equal(1);
    expect(run.outputs.broken_count).to.equal('1000');
    const body = gh.comments.find((c) => c.issue === 51)?.body ?? '';
    expect(body.length).to.be.at.most(65_536);
    expect(body.split('\n')[1]).to.equal('### ❌ Dead links: 1,000 broken of 1,000 links checked');
    const tables = marked.lexer(body).filter((t): t is Tokens.Table => t.type === 'table');
    const shown = tables.slice(1).reduce((n, t) => n + t.rows.length, 0);
    const cut = /> ✂️ Not shown here, to fit GitHub's 65,536-character limit for comments: ([\d,]+) broken links\. The \[full JSON report\]\((https:[^)]+)\) lists every link\./.exec(body);
    expect(cut, body.slice(-500)).not.to.equal(null);
    expect(shown + Number(cut?.[1].replace(/,/g, ''))).to.equal(1000);
    expect(cut?.[2]).to.equal(run.outputs.artifact_url);
    expect(body).to.include('<details><summary>980 more links with problems</summary>');
    expect(body.match(/<sub>SiteLens dead-link check/g)).to.have.length(1);
    // The job summary has room for all of them.
    expect(run.summary).not.to.include('Not shown here');
    const summaryRows = marked.lexer(run.summary).filter((t): t is Tokens.Table => t.type === 'table').slice(1).reduce((n, t) => n + t.rows.length, 0);
    expect(summaryRows).to.equal(1000);
  });

  it('without url, github or files and no checkout: this repository\'s README through GitHub mode, at the PR head, annotated on its line', async () => {
    const run = await runAction('actions/deadlinks', inputs({ url: '', comment: 'false' }), { ...ctx(), repository: 'acme/docs' });
    expect(run.code, run.stdout + run.stderr).to.equal(1);
    const annotations = run.commands.filter((c) => c.startsWith('::error title'));
    expect(annotations).to.have.length(1);
    // GitHub mode reports the column: `Old: [gone](…)` starts at column 6.
    expect(annotations[0]).to.equal(`::error title=Broken link,file=README.md,line=4,col=6::Broken link: ${site.url}/gone (410)`);
    expect(run.summary).to.include('No README in the workspace (add `actions/checkout` before this step)');
    expect(run.summary).to.include('[README.md:4:6](https://github.com/acme/docs/blob/sha-of-pr-7/README.md#L4)');
    const readmeCall = gh.calls.find((c) => c.path === '/repos/acme/docs/readme');
    expect(readmeCall?.query, 'the README as the pull request changes it').to.equal('ref=sha-of-pr-7');
  });
});
