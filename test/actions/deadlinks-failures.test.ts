import { expect } from 'chai';
import { freePort, type TestService } from '../support/service.js';
import { html, redirect, serve, status, type FixtureServer } from '../links/fixture-site.js';
import { actionTestbed, type ActionTestbed } from './support/testbed.js';
import { runAction, type ActionRun } from './support/run-action.js';

/** Everything a run left for people to read: log, summary, outputs and the PR comments. */
const everythingWritten = (run: ActionRun, comments: Array<{ body: string }>) =>
  [run.stdout.replace(/^::add-mask::.*$/gm, ''), run.stderr, run.summary, JSON.stringify(run.outputs), ...comments.map((c) => c.body)].join('\n');

describe('actions/deadlinks when it cannot get a report (dist bundle, as the runner runs it)', function () {
  this.timeout(60_000);
  let svc: TestService;
  let site: FixtureServer;
  let proxy: FixtureServer;
  let elsewhere: FixtureServer;
  let moved: FixtureServer;
  let gh: ActionTestbed['gh'];
  let key: string;
  let bed: ActionTestbed;
  const ctx = (pullRequest: number) => ({ repository: 'acme/site', githubApiUrl: gh.url, pullRequest });
  const inputs = (extra: Record<string, string> = {}) => ({ url: `${site.url}/`, mode: 'quick', api_url: svc.url, api_key: key, github_token: 'ghs_installation', artifact: 'false', ...extra });

  before(async () => {
    site = await serve({ '/': html('<a href="/gone">gone</a> <a href="/ok">ok</a>'), '/ok': html('ok'), '/gone': status(410) });
    // A proxy in front of the API answering its own HTML error page.
    proxy = await serve({ '/api/deadlinks': (_req, res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('<html><body><h1>500 Internal Server Error</h1><hr>nginx</body></html>') });
    elsewhere = await serve({});
    moved = await serve({ '/api/deadlinks': redirect(`${elsewhere.url}/api/deadlinks?stolen=1`, 301) });
    ({ svc, gh, key } = bed = await actionTestbed());
  });
  after(async () => {
    await bed?.close();
    await Promise.all([site, proxy, elsewhere, moved].map((s) => s?.close()));
  });

  it('without api_url: fails before any request, naming the input', async () => {
    const callsBefore = gh.calls.length;
    const run = await runAction('actions/deadlinks', inputs({ api_url: '' }), ctx(71));
    expect(run.code).to.equal(1);
    expect(run.commands).to.deep.equal(['::error::input api_url is required: the base URL of your SiteLens API, e.g. https://sitelens.example.com']);
    expect(gh.calls.length, 'no GitHub call').to.equal(callsBefore);
    expect(site.hits, 'no check').to.deep.equal([]);
  });

  it('an exclude pattern the service would refuse (a backreference): fails before any request, naming the input and the pattern', async () => {
    const run = await runAction('actions/deadlinks', inputs({ exclude: 'ok\n(a)\\1' }), ctx(70));
    expect(run.code).to.equal(1);
    expect(run.commands).to.have.length(1);
    expect(run.commands[0]).to.match(/^::error::input exclude: "\(a\)\\\\1" is not a valid RE2 regular expression \(invalid escape sequence: `\\1` \(RE2 syntax: no lookahead, lookbehind or backreferences\)\)$/);
    expect(site.hits, 'no check').to.deep.equal([]);
  });

  it('the API unreachable: one failure line; the previous report stays in the comment under a line saying this run failed and why', async () => {
    const good = await runAction('actions/deadlinks', inputs({ fail_on: 'never' }), ctx(72));
    expect(good.code).to.equal(0);
    const comment = () => gh.comments.find((c) => c.issue === 72);
    const report = comment()?.body.split('\n').slice(1).join('\n') ?? '';
    expect(report).to.match(/^### ❌ Dead links: 1 broken/);

    const deadApi = `http://127.0.0.1:${await freePort()}`;
    const down = await runAction('actions/deadlinks', inputs({ api_url: deadApi }), ctx(72));
    expect(down.code).to.equal(1);
    expect(down.commands).to.deep.equal([`::error::GET /api/deadlinks: could not reach the SiteLens API at ${deadApi} (ECONNREFUSED)`]);
    expect(down.summary).to.include(`> **Dead links: this run failed.** GET /api/deadlinks: could not reach the SiteLens API at ${deadApi} (ECONNREFUSED)`);
    const body = comment()?.body ?? '';
    const [marker, ...rest] = body.split('\n');
    expect(marker).to.match(/^<!-- sitelens:deadlinks key=/);
    expect(rest.join('\n')).to.match(/^<!-- sitelens:run-failed -->\n> \[!WARNING\]\n> \*\*Dead links: this run failed\.\*\* GET \/api\/deadlinks: could not reach/);
    expect(body).to.include('> The report below is from the previous run.');
    expect(body.endsWith(report), 'the previous table, untouched').to.equal(true);
    expect(body).not.to.include('n/a');

    await runAction('actions/deadlinks', inputs({ api_url: deadApi }), ctx(72));
    expect(comment()?.body.match(/this run failed/g), 'a second failure replaces the line, it does not stack').to.have.length(1);

    await runAction('actions/deadlinks', inputs({ fail_on: 'never' }), ctx(72));
    expect(comment()?.body).not.to.include('this run failed');
    expect(gh.comments.filter((c) => c.issue === 72)).to.have.length(1);
  });

  it('the key refused: the status and the API\'s error, without the query or the key anywhere', async () => {
    const bad = 'sl_not_a_key_0123456789';
    const run = await runAction('actions/deadlinks', inputs({ api_key: bad }), ctx(73));
    expect(run.code).to.equal(1);
    const line = run.commands.at(-1) ?? '';
    expect(line).to.match(/^::error::GET \/api\/deadlinks failed \(401\): \S.*/);
    expect(line).not.to.include('?');
    expect(everythingWritten(run, gh.comments.filter((c) => c.issue === 73))).not.to.include(bad);
    expect(gh.comments.find((c) => c.issue === 73)?.body).to.include('There is no earlier report to show.');
  });

  it('an HTML error page from a proxy: the status and what answered, never the HTML', async () => {
    const run = await runAction('actions/deadlinks', inputs({ api_url: proxy.url, comment: 'false' }), ctx(74));
    expect(run.code).to.equal(1);
    expect(run.commands).to.deep.equal([`::error::GET /api/deadlinks failed (500): ${proxy.url} answered text/html instead of the API's JSON; is api_url the SiteLens API?`]);
    expect(everythingWritten(run, [])).not.to.match(/nginx|<h1>/);
  });

  it('an API that redirects elsewhere: not followed, so the key never reaches the other host; the line names where it pointed', async () => {
    const run = await runAction('actions/deadlinks', inputs({ api_url: moved.url, comment: 'false' }), ctx(75));
    expect(run.code).to.equal(1);
    expect(run.commands).to.deep.equal([
      `::error::GET /api/deadlinks was redirected (301) to ${elsewhere.url}; set api_url to the API's own address (the key is never sent to a redirect)`,
    ]);
    expect(elsewhere.hits).to.deep.equal([]);
  });

  it('api_url that is not an http(s) URL fails naming the input, without echoing it', async () => {
    const run = await runAction('actions/deadlinks', inputs({ api_url: 'ftp://user:secret@host' }), ctx(76));
    expect(run.code).to.equal(1);
    expect(run.commands).to.deep.equal(['::error::input api_url must be an http(s) URL (the base URL of your SiteLens API, e.g. https://sitelens.example.com)']);
  });
});
