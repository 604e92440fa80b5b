import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dualSchemeSite, loopbackCerts, type Route } from '../support/dual-scheme-site.js';
import { startTestService, type TestService } from '../support/service.js';
import { pullFilesOf } from './support/docs-repository.js';
import { gitRepo, shallowClone, type Repo } from './support/git-repo.js';
import { startGithubStandIn, suggestionOf } from './support/github-stand-in.js';
import { runAction } from './support/run-action.js';


describe('actions/deadlinks one-click fixes across calls: a permanent redirect in the first call\'s files, an https upgrade in the second\'s (a free key)', function () {
  this.timeout(180_000);
  let dir: string;
  let site: Awaited<ReturnType<typeof dualSchemeSite>>;
  let svc: TestService;
  let gh: Awaited<ReturnType<typeof startGithubStandIn>>;
  let repo: Repo;
  let merge: Repo;
  let head: string;

  before(async () => {
    const certs = await loopbackCerts();
    dir = await mkdtemp(path.join(os.tmpdir(), 'suggest-action-'));
    await writeFile(path.join(dir, 'ca.pem'), certs.ca);
    const ok: Route = (_s, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
    site = await dualSchemeSite({ '/plain': ok, '/final': ok, '/moved': (_s, res, base) => res.writeHead(301, { location: `${base}/final` }).end() }, certs.leaf);
    repo = await gitRepo();
    await repo.write({ 'README.md': '# Docs\n' });
    const base = await repo.commit('docs');
    await repo.git('checkout', '-q', '-b', 'feature');
    await repo.write({
      'README.md': `# Docs\n\nMoved: [m](${site.http}/moved) for all.\n`,
      ...Object.fromEntries(Array.from({ length: 205 }, (_, i) => [`docs/f-${String(i).padStart(3, '0')}.md`, `# F${i}\n`])),
      'docs/z-last.md': `# Last\n\n* [s](${site.http}/plain)\n`,
    });
    head = await repo.commit('feature: many files, two fixable links');
    await repo.git('checkout', '-q', '--detach', 'main');
    await repo.git('merge', '-q', '--no-ff', '-m', 'Merge feature', 'feature');
    merge = await shallowClone(repo, (await repo.git('rev-parse', 'HEAD')).trim(), 2);
    gh = await startGithubStandIn({ pullFiles: { 7: await pullFilesOf(repo, base, head) } });
    svc = await startTestService({ GITHUB_API_URL: gh.url, TLS_EXTRA_CA_FILE: path.join(dir, 'ca.pem'), ARCHIVE_API_URL: '' });
  });
  after(async () => {
    await Promise.all([merge?.remove(), repo?.remove(), site?.close()]);
    await svc?.close();
    await gh?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the merged report keeps both calls\' fixes (the https twin among its upgrades), and one review offers both', async () => {
    const inputs = { files: '**/*.md', changed_only: 'true', api_url: svc.url, api_key: await svc.newKey('free'), github_token: 'ghs_installation', artifact: 'false', fail_on: 'never' };
    const run = await runAction('actions/deadlinks', inputs, { repository: 'acme/docs', githubApiUrl: gh.url, pullRequest: 7, headSha: head, workspace: merge.dir });
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.summary).to.include('went to the API in 2 calls');
    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    expect(report.upgrades.map((i: { url: string; suggestion: unknown }) => [i.url, i.suggestion])).to.deep.equal([[`${site.http}/plain`, { url: `${site.https}/plain`, reason: 'https' }]]);
    expect(report.summary.suggestions).to.equal(2);
    expect(gh.reviews).to.have.length(1);
    expect(gh.reviews[0].comments.map((c) => [c.path, c.line, suggestionOf(c.body)])).to.deep.equal([
      ['README.md', 3, `Moved: [m](${site.http}/final) for all.`],
      ['docs/z-last.md', 3, `* [s](${site.https}/plain)`],
    ]);
    const comment = gh.comments.find((c) => c.issue === 7)?.body ?? '';
    expect(comment).to.include('**Fixed for you:** 2 fixes (1 permanent redirect, 1 https upgrade) offered as suggestions');
  });
});
