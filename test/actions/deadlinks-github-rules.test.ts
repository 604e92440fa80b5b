import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { html, serve, type FixtureServer } from '../links/fixture-site.js';
import { placeOf } from './support/docs-repository.js';
import { gitRepo, shallowClone, type Repo } from './support/git-repo.js';
import { actionTestbed, type ActionTestbed } from './support/testbed.js';
import { runAction, type ActionRun } from './support/run-action.js';

interface Item {
  url: string;
  kind: string;
  file?: string;
  line?: number;
  locations?: Array<{ file: string; line: number; column?: number }>;
}
const at = (items: Item[]) => items.map((i) => `${i.kind} ${i.url} @${i.file}:${i.line}`).sort();
const reportOf = async (run: ActionRun) => JSON.parse(await readFile(run.outputs.report, 'utf8'));

/**
 * The deadlinks action on a repository built from the cases GitHub's rendering decides: a
 * set larger than a free key's call (so it goes in two calls) whose files link into each
 * other's headings, reference definitions, stripped raw HTML, `..` above the root, links at a
 * tag, a Latin-1 file; its host a GitHub Enterprise server on loopback.
 */
describe('actions/deadlinks on repository files, as GitHub renders them (as the runner runs the action)', function () {
  this.timeout(180_000);
  let bed: ActionTestbed;
  let ext: FixtureServer;
  let ghe: FixtureServer;
  let repo: Repo;
  let shallow: Repo;
  const files: Record<string, string | Buffer> = {};

  before(async () => {
    ext = await serve({ '/ok': html('ok') });
    ghe = await serve({ '/acme/docs/issues': html('issues') });
    bed = await actionTestbed();
    repo = await gitRepo();
    const base = `${ghe.url}/acme/docs`;
    await repo.write({ 'docs/old.md': '# Old\n\n## Old heading\n', 'README.md': '# Docs\n' });
    await repo.commit('v1.0');
    await repo.git('tag', 'v1.0');
    // 260 pages: more than a free key's 200 documents a call, so page-000 and page-25x travel in different calls.
    for (let i = 0; i < 260; i++) files[`docs/pages/page-${String(i).padStart(3, '0')}.md`] = `# Page ${i}\n\n## Section ${i}\n`;
    files['docs/pages/page-000.md'] += '\n[far](page-250.md#section-250) [far gone](page-251.md#no-such-section)\n';
    files['docs/pages/page-255.md'] += '\n[back](page-001.md#section-1) [back gone](page-001.md#nope)\n';
    files['README.md'] = [
      '# Docs', //                                                                  1
      '',
      '<link href="/@global/global.css" rel="stylesheet"><script src="/x.js"></script>', // 3
      '', //                                                                        4: ends the HTML block
      `[home](/../../) [issues](../../issues) [ok](${ext.url}/ok)`, //               5
      `[old](${base}/blob/v1.0/docs/old.md#old-heading) [old gone](${base}/blob/v1.0/docs/pages/page-001.md)`, // 6
      `[current](${base}/blob/main/docs/pages/page-002.md#section-2) [unknown tag](${base}/blob/v0.5/x.md)`, // 7
      '',
      'See [Float] and [guide][GUIDE].', //                                          9
      '',
      '[float]: docs/pages/page-003.md#section-3', //                                11
      '[Float]: docs/none.md', //                                                    12: repeated label, renders nothing
      '[guide]: docs/pages/page-004.md', //                                          13
      '[unused]: docs/unused-target.md', //                                          14: no reference
      '',
      '[code line](src/app.py#L2)', //                                              16: into a file outside the set: not judged
    ].join('\n');
    files['src/app.py'] = 'print(1)\nprint(2)\n';
    files['docs/latin.md'] = Buffer.from('# R\xe9sum\xe9\n\nVoir [la page](pages/page-999.md).\n', 'latin1');
    await repo.write({ ...files, 'docs/old.md': null });
    await repo.commit('docs');
    shallow = await shallowClone(repo, 'main', 1);
  });
  after(async () => {
    await Promise.all([repo?.remove(), shallow?.remove(), ext?.close(), ghe?.close()]);
    await bed?.close();
  });

  const run = (workspace: string, key: string, extra: Record<string, string> = {}) =>
    runAction(
      'actions/deadlinks',
      { files: '**/*.md', api_url: bed.svc.url, api_key: key, artifact: 'false', comment: 'false', fail_on: 'never', ...extra },
      { repository: 'acme/docs', githubApiUrl: bed.gh.url, serverUrl: ghe.url, workspace },
    );
  const usage = async (key: string) => (await bed.svc.call('/api/usage', { headers: { 'x-api-key': key } })).body;

  it('a free key: sized to its limits before the first call (two calls, no 413 spent); fragments across the calls judged; counts agree everywhere', async () => {
    const key = await bed.svc.newKey('free');
    const r = await run(repo.dir, key);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect((await usage(key)).calls_this_period, 'one call per batch, none refused').to.equal(2);
    expect(r.summary).to.include('went to the API in 2 calls (200 files / 2 MB a call with this key)');

    const report = await reportOf(r);
    expect(at(report.broken_links)).to.deep.equal([
      `missing_file ${ghe.url}/acme/docs/blob/v1.0/docs/pages/page-001.md @README.md:6`,
      `http_404 ${ghe.url}/acme/docs/blob/v0.5/x.md @README.md:7`,
      'missing_file docs/pages/page-999.md @docs/latin.md:3',
    ].sort());
    expect(at(report.warnings)).to.deep.equal(['missing_fragment docs/pages/page-001.md#nope @docs/pages/page-255.md:5', 'missing_fragment docs/pages/page-251.md#no-such-section @docs/pages/page-000.md:5']);
    expect(at(report.not_checked)).to.deep.equal(['fragment_not_judged src/app.py#L2 @README.md:16']);
    expect(r.summary).to.include('Not checked, not counted (1)').and.include('1 link was found but not checked');
    // Nothing of the stripped HTML, the repeated or unused definitions; the tag was read from git, the home known.
    const urls = report.checked_urls as string[];
    for (const gone of ['@global', 'x.js', 'docs/none.md', 'docs/unused-target.md']) expect(urls.some((u) => u.includes(gone)), gone).to.equal(false);
    expect(urls).to.include.members([`${ghe.url}/acme/docs/blob/v1.0/docs/old.md#old-heading`, 'docs/pages/page-250.md#section-250', 'docs/pages/page-003.md#section-3']);
    expect(ghe.hits.filter((h) => h.includes('v1.0') || h.includes('/blob/main/') || h === 'HEAD /acme/docs/')).to.deep.equal([]);

    // One definition of each count: the API's report, the outputs and the summary say the same.
    expect(report.summary.internal_links + report.summary.external_links).to.equal(report.total_links_checked);
    expect(report.summary.health_score).to.equal(Math.round(1000 * (1 - report.broken_count / report.total_links_checked)) / 10);
    expect([r.outputs.broken_count, r.outputs.health_score]).to.deep.equal([String(report.broken_count), String(report.summary.health_score)]);
    expect(r.summary).to.include(`${report.broken_count} broken of ${report.total_links_checked.toLocaleString('en-US')} links checked`);
  });

  it('a key without enough calls left today for the set fails before the first call, saying what it needs', async () => {
    const key = await bed.svc.newKey('free');
    const { deps } = bed.svc;
    const record = await deps.keys.findByPlain(key);
    if (!record) throw new Error('no key');
    // 19 of the anonymous free key's 20 calls spent today: the set needs 2.
    await deps.redis.set(deps.limiter.dailyCountKey(record, deps.keys.dailyLimit(record)), '19', 'EX', 3600);
    const r = await run(repo.dir, key);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.include('need 2 calls with this free key (200 files / 2 MB a call), and it has 1 call left today');
    expect((await usage(key)).calls_this_period, 'no call spent').to.equal(0);
  });

  it('the same files with a business key in one call give the same report', async () => {
    const [one, two] = await Promise.all([run(repo.dir, bed.key), run(repo.dir, await bed.svc.newKey('free'))].map(async (p) => reportOf(await p)));
    for (const field of ['broken_count', 'total_links_checked', 'checked_urls', 'checked_internal_urls'] as const) expect(two[field], field).to.deep.equal(one[field]);
    expect(two.summary).to.deep.include({ ...one.summary, duration_ms: two.summary.duration_ms, cached_results: two.summary.cached_results });
    expect(at(two.warnings)).to.deep.equal(at(one.warnings));
  });

  it('a checkout without the tag (fetch-depth 1): links at it go over the network, never against the current files', async () => {
    const r = await run(shallow.dir, bed.key);
    const report = await reportOf(r);
    expect(at(report.broken_links)).to.include.members([`http_404 ${ghe.url}/acme/docs/blob/v1.0/docs/old.md @README.md:6`, `http_404 ${ghe.url}/acme/docs/blob/v1.0/docs/pages/page-001.md @README.md:6`]);
    expect(ghe.hits).to.include('HEAD /acme/docs/blob/v1.0/docs/pages/page-001.md');
  });

  it('offline: no request leaves the runner or the service; the links that need one are counted as not checked and listed in the summary', async () => {
    const extBefore = ext.hits.length;
    const gheBefore = ghe.hits.length;
    const r = await run(repo.dir, bed.key, { offline: 'true' });
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect([ext.hits.length, ghe.hits.length]).to.deep.equal([extBefore, gheBefore]);
    const report = await reportOf(r);
    expect(at(report.not_checked)).to.deep.equal(
      [`offline ${ext.url}/ok @README.md:5`, `offline ${ghe.url}/acme/docs/blob/v0.5/x.md @README.md:7`, `offline ${ghe.url}/acme/docs/issues @README.md:5`, 'fragment_not_judged src/app.py#L2 @README.md:16'].sort(),
    );
    expect(report.summary.not_checked).to.equal(4);
    expect(r.summary).to.include('Offline (`offline: true`)').and.include('Not checked, not counted (4)').and.include('4 links were found but not checked');
  });

  it('unused_definitions: true lists the definitions that render nothing as warnings on their lines', async () => {
    const r = await run(repo.dir, bed.key, { unused_definitions: 'true', files: 'README.md' });
    const report = await reportOf(r);
    const unused = report.warnings.filter((w: Item) => w.kind === 'unused_definition');
    expect(at(unused)).to.deep.equal(['unused_definition docs/none.md @README.md:12', 'unused_definition docs/unused-target.md @README.md:14']);
    const place = placeOf('README.md', String(files['README.md']), '[unused]:');
    expect(r.commands.some((c) => c.startsWith('::warning ') && c.includes(`line=${place.line}`))).to.equal(true);
  });
});
