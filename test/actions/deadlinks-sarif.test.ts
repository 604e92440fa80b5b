import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Log } from 'sarif';
import { validateSarif } from '../support/sarif-schema.js';
import { serve, status, html, type FixtureServer } from '../links/fixture-site.js';
import { docsRepository, type Place } from './support/docs-repository.js';
import { shallowClone, type Repo } from './support/git-repo.js';
import { actionTestbed, type ActionTestbed } from './support/testbed.js';
import { runAction } from './support/run-action.js';
import { uploadSarif } from './support/upload-sarif-step.js';

/** Each result's place as code scanning reads it: `uri:line:column` against the checkout's root. */
const placesIn = (log: Pick<Log, 'runs'>, level = 'error') =>
  log.runs
    .flatMap((r) => r.results ?? [])
    .filter((r) => (r.level ?? 'warning') === level)
    .flatMap((r) => r.locations ?? [])
    .map((l) => l.physicalLocation)
    .map((p) => `${decodeURIComponent(p?.artifactLocation?.uri ?? '')}:${p?.region?.startLine}:${p?.region?.startColumn}`)
    .sort();
const at = (places: Place[]) => places.map((p) => `${p.file}:${p.line}:${p.column}`).sort();

describe('actions/deadlinks sarif output for code scanning (as the runner runs the action, then upload-sarif)', function () {
  this.timeout(120_000);
  let bed: ActionTestbed;
  let ext: FixtureServer;
  let fx: Awaited<ReturnType<typeof docsRepository>>;
  let clone: Repo;
  // The fixture's link to its own blob/main/ URL would go to github.com from a push of another branch: never beyond loopback.
  const inputs = (extra: Record<string, string> = {}) => ({ files: '**/*.md\nsite/**/*.html', exclude: '^https://github\\.com/', api_url: bed.svc.url, api_key: bed.key, artifact: 'false', comment: 'false', fail_on: 'never', ...extra });
  const push = () => ({ repository: 'acme/docs', githubApiUrl: bed.gh.url, workspace: clone.dir, sha: fx.head, branch: 'feature' });

  before(async () => {
    ext = await serve({ '/ok': html('ok'), '/gone': status(410) });
    fx = await docsRepository(ext.url);
    bed = await actionTestbed();
    clone = await shallowClone(fx.repo, fx.head, 1);
  });
  after(async () => {
    await Promise.all([clone?.remove(), fx?.repo.remove(), ext?.close()]);
    await bed?.close();
  });

  it('sarif: true writes a SARIF 2.1.0 file valid against the official schema; upload-sarif\'s upload is accepted, and every location is a file of the repository at its broken link\'s line and column', async () => {
    const run = await runAction('actions/deadlinks', inputs({ sarif: 'true' }), push());
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.outputs.sarif).to.equal('sitelens-deadlinks.sarif');
    const log = JSON.parse(await readFile(path.join(clone.dir, run.outputs.sarif), 'utf8')) as Log;
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).to.equal(true);

    const upload = await uploadSarif({ sarifFile: run.outputs.sarif, workspace: clone.dir, token: 'ghs_installation', apiUrl: bed.gh.url, repository: 'acme/docs', sha: fx.head, ref: 'refs/heads/feature' });
    expect(upload.status).to.equal(202);
    const stored = bed.gh.sarifUploads.find((u) => u.id === upload.id);
    expect(stored?.commit_sha).to.equal(fx.head);
    const read = stored?.log as Log;
    const files = new Set((await clone.git('ls-files')).split('\n').filter(Boolean));
    const locations = read.runs.flatMap((r) => r.results ?? []).flatMap((r) => r.locations ?? []);
    expect(locations.length).to.be.greaterThan(0);
    for (const l of locations) {
      const a = l.physicalLocation?.artifactLocation;
      expect(a?.uriBaseId).to.equal('%SRCROOT%');
      expect(files.has(decodeURIComponent(a?.uri ?? '')), `${a?.uri} is a file of the repository`).to.equal(true);
    }
    expect(placesIn(read)).to.deep.equal(at([...fx.changedLinks.broken, ...fx.oldBroken]));
    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    expect(placesIn(read).length).to.equal(report.summary.broken_places);
  });

  it('a set sent in two calls (a free key): the SARIF of the merged report has the same results and fingerprints as one call\'s, at the path given', async () => {
    const whole = await runAction('actions/deadlinks', inputs({ sarif: 'true' }), push());
    const parts = await runAction('actions/deadlinks', inputs({ sarif: 'reports/links.sarif', api_key: await bed.svc.newKey('free') }), push());
    expect(parts.summary).to.include('went to the API in 2 calls');
    expect(parts.outputs.sarif).to.equal('reports/links.sarif');
    const [a, b] = await Promise.all([whole, parts].map(async (r) => JSON.parse(await readFile(path.join(clone.dir, r.outputs.sarif), 'utf8')) as Log));
    expect(validateSarif(b), JSON.stringify(validateSarif.errors)).to.equal(true);
    const prints = (log: Log) => log.runs.flatMap((r) => r.results ?? []).map((r) => JSON.stringify(r.partialFingerprints)).sort();
    expect(placesIn(b)).to.deep.equal(placesIn(a));
    expect(placesIn(b, 'warning')).to.deep.equal(placesIn(a, 'warning'));
    expect(prints(b)).to.deep.equal(prints(a));
  });

  it('on a pull request, the test merge commit\'s upload (refs/pull/N/merge) is accepted; without the input there is no file and the output is empty', async () => {
    const pr = { ...push(), pullRequest: 5, headSha: fx.head };
    const run = await runAction('actions/deadlinks', inputs({ sarif: 'true' }), pr);
    const upload = await uploadSarif({ sarifFile: run.outputs.sarif, workspace: clone.dir, token: 'ghs_installation', apiUrl: bed.gh.url, repository: 'acme/docs', sha: fx.head, ref: 'refs/pull/5/merge' });
    expect(upload.status).to.equal(202);
    const none = await runAction('actions/deadlinks', inputs(), push());
    expect(none.outputs.sarif).to.equal('');
  });

  it('a sarif path outside the workspace fails the step before any call, saying what is allowed', async () => {
    const run = await runAction('actions/deadlinks', inputs({ sarif: '../elsewhere.sarif' }), push());
    expect(run.code).to.equal(1);
    expect(run.commands.join('\n')).to.include('input sarif must be true, false or a file path inside the workspace');
  });
});
