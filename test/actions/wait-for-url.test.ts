import { expect } from 'chai';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { isUp } from '../../actions/shared/src/wait-for-url.js';
import { actionTestbed, type ActionTestbed } from './support/testbed.js';
import { runAction } from './support/run-action.js';

/**
 * `wait_for_url`: the action polls the deployment from the runner (its requests carry the
 * action's user agent; the service's do not) until it is up, then checks it.
 */
describe('wait_for_url and wait_timeout (dist bundles, as the runner runs them)', function () {
  this.timeout(120_000);
  let bed: ActionTestbed;
  let site: FixtureServer;
  /** Answers the runner's polls with this status until `upAfter` polls were made. */
  let upAfter = 0;
  let downStatus = 503;
  let polls = 0;
  const ctx = () => ({ repository: 'acme/site', githubApiUrl: bed.gh.url, eventName: 'push', job: 'links' });

  before(async () => {
    site = await startFixtureServer((req, res) => {
      if (req.headers['user-agent'] === 'sitelens-action') {
        polls++;
        if (polls <= upAfter) return void res.writeHead(downStatus, { 'content-type': 'text/plain' }).end('not yet');
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>ok</title><a href="/about">about</a>');
    });
    bed = await actionTestbed();
  });
  after(async () => {
    await bed?.close();
    await site?.close();
  });
  beforeEach(() => {
    polls = 0;
  });

  it('deadlinks, a site that answers 503 twice and then 200: waits, then checks it, and the summary says how long', async () => {
    upAfter = 2;
    downStatus = 503;
    const run = await runAction('actions/deadlinks', { url: `${site.url}/`, mode: 'quick', wait_for_url: 'true', api_url: bed.svc.url, api_key: bed.key }, ctx());
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(polls).to.equal(3);
    expect(run.stdout).to.include(`${site.url}/: answered 503; trying again in 0.5 s.`);
    expect(run.stdout).to.include(`${site.url}/: answered 503; trying again in 1 s.`);
    expect(run.summary).to.match(new RegExp(`Waited \\d+\\.\\d s for ${site.url}/ to be up \\(it answered 200 after 3 tries\\)`));
    expect(run.outputs.broken_count).to.equal('0');
  });

  it('deadlinks, a site that never comes up within wait_timeout: the step fails saying what it last answered and what to do', async () => {
    upAfter = 1_000;
    downStatus = 404;
    const run = await runAction('actions/deadlinks', { url: `${site.url}/`, mode: 'quick', wait_for_url: 'true', wait_timeout: '10', api_url: bed.svc.url, api_key: bed.key }, ctx());
    expect(run.code).to.equal(1);
    expect(run.commands.at(-1)).to.match(
      new RegExp(`^::error::wait_for_url: ${site.url}/ was not up within wait_timeout \\(10 s, \\d+ tries; last: answered 404\\)\\. Raise wait_timeout if the deployment takes longer, or check that it succeeded\\.$`),
    );
    expect(polls).to.be.greaterThan(2);
    expect(run.steps.publish.outcome).to.equal('skipped');
  });

  it('without wait_for_url nothing polls: the check goes straight to the API', async () => {
    upAfter = 1_000;
    const run = await runAction('actions/deadlinks', { url: `${site.url}/`, mode: 'quick', api_url: bed.svc.url, api_key: bed.key }, ctx());
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(polls).to.equal(0);
    expect(run.summary).not.to.include('Waited');
  });

  it('screenshot-diff polls preview_url and its first path before comparing', async () => {
    upAfter = 1;
    downStatus = 502;
    const run = await runAction(
      'actions/screenshot-diff',
      { baseline_url: site.url, preview_url: site.url, paths: '/about', viewports: '400x300', full_page: 'false', wait_for_url: 'true', api_url: bed.svc.url, api_key: bed.key },
      ctx(),
    );
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.summary).to.match(new RegExp(`Waited \\d+\\.\\d s for ${site.url}/about to be up \\(it answered 200 after 2 tries\\)`));
  });

  for (const [input, value, message] of [
    ['wait_timeout', '5', 'input wait_timeout must be an integer between 10 and 3600, got "5"'],
    ['wait_for_url', 'maybe', 'input wait_for_url must be true or false, got "maybe"'],
  ] as const) {
    it(`deadlinks with ${input}: ${value} fails before any call, naming the input and its bounds`, async () => {
      const run = await runAction('actions/deadlinks', { url: `${site.url}/`, wait_for_url: 'true', [input]: value, api_url: bed.svc.url, api_key: bed.key }, ctx());
      expect(run.code).to.equal(1);
      expect(run.commands.at(-1)).to.equal(`::error::${message}`);
      expect(polls).to.equal(0);
    });
  }

  it('deadlinks with a target_headers line that is not "Name: value": fails naming the line, its value masked and never printed', async () => {
    const run = await runAction('actions/deadlinks', { url: `${site.url}/`, target_headers: 'x-ok: fine-value-1\nnot a header line s3cr3t-9', api_url: bed.svc.url, api_key: bed.key }, ctx());
    expect(run.code).to.equal(1);
    expect(run.commands.at(-1)).to.equal('::error::input target_headers: line 2 must be "Name: value" (a header name, a colon, then its value)');
    expect(run.stdout).to.include('::add-mask::fine-value-1');
    expect(run.stdout).to.include('::add-mask::not a header line s3cr3t-9');
  });

  it('deadlinks with target_headers on repository files: fails, the headers apply to a site', async () => {
    const run = await runAction('actions/deadlinks', { files: '**/*.md', target_headers: 'x-token: abc', api_url: bed.svc.url, api_key: bed.key }, ctx());
    expect(run.code).to.equal(1);
    expect(run.commands.at(-1)).to.equal('::error::input target_headers applies to a site (url, or the deployment of a deployment_status event), not to repository files');
  });

  it('isUp: 2xx and 3xx are up; 401/403 only without target headers; 404, 5xx are not', () => {
    const table = [200, 204, 301, 307, 401, 403, 404, 429, 500, 503].map((s) => [s, isUp(s, false), isUp(s, true)]);
    expect(table).to.deep.equal([
      [200, true, true],
      [204, true, true],
      [301, true, true],
      [307, true, true],
      [401, true, false],
      [403, true, false],
      [404, false, false],
      [429, false, false],
      [500, false, false],
      [503, false, false],
    ]);
  });
});
