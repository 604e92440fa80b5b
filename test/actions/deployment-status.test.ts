import { expect } from 'chai';
import type { IncomingHttpHeaders } from 'node:http';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestService, type TestService } from '../support/service.js';
import { startGithubStandIn } from './support/github-stand-in.js';
import { runAction, type ActionRun } from './support/run-action.js';

const BYPASS = 'vercel-bypass-3b7e91';

/** A deployment_status event as GitHub sends it (the fields the actions read, and some they do not). */
const deploymentEvent = (state: string, urls: { environment_url?: string; target_url?: string }) => ({
  action: 'created',
  deployment_status: { id: 1, state, environment: 'Preview', description: `Deployment ${state}`, ...urls },
  deployment: { id: 7, sha: 'abc123', ref: 'feature', environment: 'Preview' },
  repository: { full_name: 'acme/site' },
});

/** Production and the preview serve the same page, so screenshots compare equal and only access differs. */
const site = (elsewhere: string) => `<!doctype html><title>site</title><body style="margin:0;background:#0a0"><a href="/about">about</a> <a href="${elsewhere}/external">external</a>`;

/** Lines of stdout other than the `::add-mask::` commands (which hand the value to the runner to hide). */
const logOf = (run: ActionRun) =>
  run.stdout
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');

/**
 * The actions on `deployment_status` events, run as the runner runs them with a GITHUB_EVENT_PATH
 * of that shape: the deployment's URL is the default target, a deployment that did not succeed
 * is skipped with a notice, and a protected deployment is reached with `target_headers`.
 * 127.0.0.1 serves the protected preview; 127.0.0.2 production, the external link and the
 * deployment's log page (`target_url`), each recording the headers it got.
 */
describe('actions on deployment_status events (dist bundles, as the runner runs them)', function () {
  this.timeout(180_000);
  let svc: TestService;
  let gh: Awaited<ReturnType<typeof startGithubStandIn>>;
  let preview: FixtureServer;
  let other: FixtureServer;
  let key: string;
  const previewHits: string[] = [];
  const otherHits: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const ctx = (event: unknown) => ({ repository: 'acme/site', githubApiUrl: gh.url, eventName: 'deployment_status', job: 'preview', sha: 'abc123', event });

  before(async () => {
    other = await startFixtureServer((req, res) => {
      otherHits.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/html' }).end(site(other.url));
    }, '127.0.0.2');
    preview = await startFixtureServer((req, res) => {
      previewHits.push(req.url ?? '');
      if (req.headers['x-vercel-protection-bypass'] !== BYPASS) return void res.writeHead(401, { 'content-type': 'text/html' }).end('<!doctype html><body style="background:#fff">Authentication required');
      res.writeHead(200, { 'content-type': 'text/html' }).end(site(other.url));
    });
    gh = await startGithubStandIn();
    svc = await startTestService({ JOB_SECRETS_KEY: Buffer.alloc(32, 3).toString('hex'), LINK_CACHE_OK_SECONDS: '0' }, { workers: true });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await gh?.close();
    await preview?.close();
    await other?.close();
  });
  beforeEach(() => {
    previewHits.length = 0;
    otherHits.length = 0;
  });
  const leaked = () => otherHits.filter((h) => h.headers['x-vercel-protection-bypass'] !== undefined);

  it('deadlinks, deployment succeeded: checks the event\'s environment_url (not target_url, the log page) with the bypass header, masked, after waiting for it', async () => {
    const event = deploymentEvent('success', { environment_url: `${preview.url}/`, target_url: `${other.url}/build-log` });
    const run = await runAction(
      'actions/deadlinks',
      { api_url: svc.url, api_key: key, mode: 'quick', wait_for_url: 'true', target_headers: `x-vercel-protection-bypass: ${BYPASS}` },
      ctx(event),
    );
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ broken_count: '0', pass: 'true' });
    // /about is linked only from the page the preview serves with the header.
    expect(previewHits).to.include('/about');
    expect(run.stdout).to.include(`url: ${preview.url}/, the deployment_status event's environment_url (environment Preview).`);
    expect(run.summary).to.match(new RegExp(`Waited \\d+\\.\\d s for ${preview.url}/ to be up \\(it answered 200 after 1 try\\)`));
    expect(run.stdout).to.include(`::add-mask::${BYPASS}`);
    expect(logOf(run) + run.stderr + run.summary).not.to.include(BYPASS);
    expect(otherHits.map((h) => h.url)).to.include('/external').and.not.to.include('/build-log');
    expect(leaked()).to.deep.equal([]);
  });

  it('deadlinks, a status with only target_url: checks target_url and says so', async () => {
    const run = await runAction('actions/deadlinks', { api_url: svc.url, api_key: key, mode: 'quick', target_headers: `x-vercel-protection-bypass: ${BYPASS}` }, ctx(deploymentEvent('success', { target_url: `${preview.url}/` })));
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.include(`url: ${preview.url}/, the deployment_status event's target_url`);
    expect(run.outputs.broken_count).to.equal('0');
  });

  for (const state of ['failure', 'pending', 'error']) {
    it(`screenshot-diff, deployment ${state}: skipped with a notice, the step green, nothing asked of the API or the preview`, async () => {
      const run = await runAction('actions/screenshot-diff', { baseline_url: other.url, api_url: svc.url, api_key: key }, ctx(deploymentEvent(state, { environment_url: preview.url })));
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(run.commands).to.include(`::notice::The deployment to Preview is ${state}, not success: nothing to check now. The check runs on the deployment_status event that reports success.`);
      expect(run.outputs.pass).to.equal('');
      expect(previewHits).to.deep.equal([]);
    });
  }

  it('preview-report, deployment failed: the check step skips with a notice and the publish step does not run', async () => {
    const run = await runAction('actions/preview-report', { baseline_url: other.url, api_url: svc.url, api_key: key }, ctx(deploymentEvent('failure', { environment_url: preview.url })));
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.commands.some((c) => c.startsWith('::notice::The deployment to Preview is failure'))).to.equal(true);
    expect(run.steps.publish.outcome).to.equal('skipped');
  });

  it('screenshot-diff, deployment succeeded, no preview_url: compares the protected deployment with production, the header sent to the preview only', async () => {
    const run = await runAction(
      'actions/screenshot-diff',
      { baseline_url: other.url, viewports: '400x300', full_page: 'false', api_url: svc.url, api_key: key, target_headers: `x-vercel-protection-bypass: ${BYPASS}` },
      ctx(deploymentEvent('success', { environment_url: preview.url })),
    );
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs).to.include({ changed: '0', pass: 'true' });
    expect(logOf(run) + run.summary).not.to.include(BYPASS);
    expect(otherHits.length).to.be.greaterThan(0);
    expect(leaked()).to.deep.equal([]);
  });

  it('preview-report, deployment succeeded, no preview_url: the queued comparison reaches the protected deployment (links and screenshots)', async () => {
    const run = await runAction(
      'actions/preview-report',
      { baseline_url: other.url, checks: 'links,visual', viewports: '400x300', api_url: svc.url, api_key: key, artifact: 'false', target_headers: `x-vercel-protection-bypass: ${BYPASS}`, wait_for_url: 'true' },
      ctx(deploymentEvent('success', { environment_url: preview.url })),
    );
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.include(`preview_url: ${preview.url}, the deployment_status event's environment_url`);
    expect(Number(run.outputs.health_preview)).to.equal(100);
    expect(run.summary).not.to.match(/failed on the preview|401/);
    expect(logOf(run) + run.summary).not.to.include(BYPASS);
    expect(leaked()).to.deep.equal([]);
  });

  it('screenshot-diff, deployment succeeded without any URL in the status: fails saying preview_url is needed', async () => {
    const run = await runAction('actions/screenshot-diff', { baseline_url: other.url, api_url: svc.url, api_key: key }, ctx(deploymentEvent('success', {})));
    expect(run.code).to.equal(1);
    expect(run.commands.at(-1)).to.match(/^::error::input preview_url is required \(or run on a deployment_status event/);
  });
});
