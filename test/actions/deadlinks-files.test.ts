import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { marked, type Tokens } from 'marked';
import type { TestService } from '../support/service.js';
import { html, serve, status, type FixtureServer } from '../links/fixture-site.js';
import { startArtifactService } from './support/artifact-service.js';
import { docsRepository, pullFilesOf, type Place } from './support/docs-repository.js';
import { shallowClone, type Repo } from './support/git-repo.js';
import { actionTestbed, type ActionTestbed } from './support/testbed.js';
import { runAction, type ActionRun } from './support/run-action.js';

/** The run's annotations as `level file:line:column`, sorted. */
const annotated = (run: ActionRun, level: 'error' | 'warning') =>
  run.commands
    .filter((c) => c.startsWith(`::${level} `) && c.includes('file='))
    .map((c) => {
      const props = Object.fromEntries(/^::\w+ ([^:]*)::/.exec(c)?.[1].split(',').map((p) => p.split('=')) ?? []);
      return `${props.file}:${props.line}:${props.col}`;
    })
    .sort();
const at = (places: Place[]) => places.map((p) => `${p.file}:${p.line}:${p.column}`).sort();

describe('actions/deadlinks on repository files (POST /api/deadlinks/documents, as the runner runs the action)', function () {
  this.timeout(120_000);
  let svc: TestService;
  let ext: FixtureServer;
  let gh: ActionTestbed['gh'];
  let bed: ActionTestbed;
  let artifacts: Awaited<ReturnType<typeof startArtifactService>>;
  let fx: Awaited<ReturnType<typeof docsRepository>>;
  let key: string;
  let merge: Repo;
  const files = '**/*.md\nsite/**/*.html';
  const inputs = (extra: Record<string, string> = {}) => ({ files, api_url: svc.url, api_key: key, github_token: 'ghs_installation', artifact: 'false', fail_on: 'never', ...extra });
  const pr = (workspace: string, extra = {}) => ({ repository: 'acme/docs', githubApiUrl: gh.url, pullRequest: 5, headSha: fx.head, baseSha: fx.base, workspace, ...extra });

  before(async () => {
    ext = await serve({ '/': html('<a href="/gone">gone</a> <a href="/missing">missing</a> <a href="/ok">ok</a>'), '/ok': html('ok'), '/gone': status(410) });
    fx = await docsRepository(ext.url);
    ({ svc, gh, key } = bed = await actionTestbed({ pullFiles: { 5: await pullFilesOf(fx.repo, fx.base, fx.head) } }));
    artifacts = await startArtifactService();
    // The test merge commit actions/checkout checks out on pull_request, with fetch-depth: 2.
    await fx.repo.git('checkout', '-q', '--detach', 'main');
    await fx.repo.git('merge', '-q', '--no-ff', '-m', 'Merge feature', 'feature');
    merge = await shallowClone(fx.repo, (await fx.repo.git('rev-parse', 'HEAD')).trim(), 2);
  });
  after(async () => {
    await Promise.all([merge?.remove(), fx?.repo.remove(), ext?.close(), artifacts?.close()]);
    await bed?.close();
  });

  it('changed_only on a pull request (merge commit, fetch-depth 2): annotations on exactly the changed links, file:line:column; old broken links not reported', async () => {
    const run = await runAction('actions/deadlinks', inputs({ changed_only: 'true' }), pr(merge.dir));
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(annotated(run, 'error')).to.deep.equal(at(fx.changedLinks.broken));
    expect(annotated(run, 'warning')).to.deep.equal(at(fx.changedLinks.warnings));
    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    expect(report.mode).to.equal('documents');
    expect(report.broken_count).to.equal(3);
    expect(run.summary).to.include('Only links on lines this pull request adds or changes were checked (`changed_only`): 4 changed files of these (diff from git diff');
    for (const old of fx.oldBroken) expect(run.summary, old.file).not.to.include(`${old.file}:${old.line}`);
  });

  it('changed_only with a shallow checkout: the pull request files API gives the same lines', async () => {
    const clone = await shallowClone(fx.repo, fx.head, 1);
    try {
      const run = await runAction('actions/deadlinks', inputs({ changed_only: 'true' }), pr(clone.dir));
      expect(annotated(run, 'error')).to.deep.equal(at(fx.changedLinks.broken));
      expect(annotated(run, 'warning')).to.deep.equal(at(fx.changedLinks.warnings));
      expect(run.summary).to.include('(diff from the pull request files API)');
      expect(gh.calls.some((c) => c.path === '/repos/acme/docs/pulls/5/files')).to.equal(true);
    } finally {
      await clone.remove();
    }
  });

  it('every link of the files: old and new broken links, relative links and the repository\'s own blob URL checked against the paths, a gate that fails', async () => {
    const clone = await shallowClone(fx.repo, fx.head, 1);
    try {
      const run = await runAction('actions/deadlinks', inputs({ fail_on: 'gate', threshold: '99.5', comment: 'true', artifact: 'true' }), pr(clone.dir, { actionsRuntime: { ACTIONS_RUNTIME_TOKEN: artifacts.runtimeToken, ACTIONS_RESULTS_URL: artifacts.url } }));
      expect(run.code).to.equal(1);
      expect(annotated(run, 'error')).to.deep.equal(at([...fx.changedLinks.broken, ...fx.oldBroken]));
      const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
      expect(report.pages_crawled).to.equal(fx.files - 1); // every Markdown and HTML file, not the PNG
      expect(report.broken_links.some((i: { url: string }) => i.url.includes('/blob/main/docs/guide.md'))).to.equal(false);
      const comment = gh.comments.find((c) => c.issue === 5)?.body ?? '';
      expect(comment).to.include(`Full report: [`);
      expect(comment).to.include(`[docs/guide.md:${fx.changedLinks.broken[1].line}:${fx.changedLinks.broken[1].column}](https://github.com/acme/docs/blob/${fx.head}/docs/guide.md#L${fx.changedLinks.broken[1].line})`);
    } finally {
      await clone.remove();
    }
  });

  it('changed_only outside a pull request: every link checked, and the summary says so', async () => {
    const clone = await shallowClone(fx.repo, fx.head, 1);
    try {
      const run = await runAction('actions/deadlinks', inputs({ changed_only: 'true' }), { repository: 'acme/docs', githubApiUrl: gh.url, workspace: clone.dir });
      expect(run.summary).to.include('`changed_only`: this is a `push` run, not a pull request, so every link was checked.');
      expect(annotated(run, 'error')).to.deep.equal(at([...fx.changedLinks.broken, ...fx.oldBroken]));
    } finally {
      await clone.remove();
    }
  });

  it('a free key: the first call\'s 413 names its limits (200 documents), the 256 files go in two calls, and the merged report equals one call\'s, each link counted once', async () => {
    const clone = await shallowClone(fx.repo, fx.head, 1);
    try {
      const whole = await runAction('actions/deadlinks', inputs(), pr(clone.dir, { pullRequest: undefined }));
      const parts = await runAction('actions/deadlinks', inputs({ api_key: await svc.newKey('free') }), pr(clone.dir, { pullRequest: undefined }));
      expect(parts.summary).to.include('went to the API in 2 calls');
      const [a, b] = await Promise.all([whole, parts].map(async (r) => JSON.parse(await readFile(r.outputs.report, 'utf8'))));
      expect(b.broken_links.map((i: { url: string }) => i.url)).to.deep.equal(a.broken_links.map((i: { url: string }) => i.url));
      expect([b.broken_count, b.pages_crawled]).to.deep.equal([a.broken_count, a.pages_crawled]);
      // Links found in files of both calls (every page links the guide and the README) count once.
      expect([b.total_links_checked, b.summary.health_score]).to.deep.equal([a.total_links_checked, a.summary.health_score]);
      expect(b.checked_urls).to.deep.equal(a.checked_urls);
    } finally {
      await clone.remove();
    }
  });

  it('no files, no url: the README from the checkout through the documents endpoint (private repositories and GHE work)', async () => {
    const clone = await shallowClone(fx.repo, fx.head, 1);
    try {
      const run = await runAction('actions/deadlinks', inputs({ files: '' }), { repository: 'acme/docs', githubApiUrl: gh.url, workspace: clone.dir });
      expect(run.summary).to.include('Checked the README (`README.md`) from the checkout');
      const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
      expect(report.mode).to.equal('documents');
      expect(report.broken_links.map((i: { file: string }) => i.file)).to.deep.equal(['README.md', 'README.md']);
      expect(gh.calls.some((c) => c.path.endsWith('/readme')), 'nothing fetched from GitHub').to.equal(false);
    } finally {
      await clone.remove();
    }
  });

  it('1,000 broken relative links in one file: the comment stays under 65,536 characters and links the artifact', async () => {
    const clone = await shallowClone(fx.repo, fx.head, 1);
    try {
      await clone.write({ 'docs/huge.md': Array.from({ length: 1000 }, (_, i) => `- [missing ${i}](missing/file-${i}.md)`).join('\n') });
      const run = await runAction(
        'actions/deadlinks',
        inputs({ files: 'docs/huge.md', artifact: 'true' }),
        pr(clone.dir, { pullRequest: 6, actionsRuntime: { ACTIONS_RUNTIME_TOKEN: artifacts.runtimeToken, ACTIONS_RESULTS_URL: artifacts.url } }),
      );
      expect(run.outputs.broken_count).to.equal('1000');
      const body = gh.comments.find((c) => c.issue === 6)?.body ?? '';
      expect(body.length).to.be.at.most(65_536);
      const rows = marked.lexer(body).filter((t): t is Tokens.Table => t.type === 'table').slice(1).reduce((n, t) => n + t.rows.length, 0);
      const cut = Number(/: ([\d,]+) broken links\. The \[full JSON report\]/.exec(body)?.[1].replace(/,/g, ''));
      expect(rows + cut).to.equal(1000);
      expect(body).to.include(`(${run.outputs.artifact_url})`);
    } finally {
      await clone.remove();
    }
  });

  it('files of other types (YAML, reStructuredText, JSON, text) are read for their http(s) URLs with line and column; binary files are not sent, and the summary says so', async () => {
    const clone = await shallowClone(fx.repo, fx.head, 1);
    try {
      const gone = `${ext.url}/gone`;
      await clone.write({
        'docs/other/config.yml': `links:\n  - "${ext.url}/ok"\n  - "${gone}"\n`,
        'docs/other/index.rst': `Index\n=====\n\nSee \`the page <${gone}>\`_.\n`,
        'docs/other/data.json': `{"u":"${gone}"}`,
        'docs/other/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff]),
        'docs/other/blob.bin': Buffer.from([0x00, 0xff, 0xfe, 0xfd]),
        'docs/other/legacy.html': Buffer.from('<meta charset="windows-1252"><a href="caf\xe9.html">caf\xe9</a>', 'latin1'),
        'docs/other/café.html': '<p>menu</p>',
      });
      const run = await runAction('actions/deadlinks', inputs({ files: 'docs/other/**' }), { repository: 'acme/docs', githubApiUrl: gh.url, workspace: clone.dir });
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(annotated(run, 'error')).to.deep.equal(['docs/other/config.yml:3:6', 'docs/other/data.json:1:7', 'docs/other/index.rst:4:15'].sort());
      const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
      expect(report.summary.skipped_documents, 'binary files never reach the API').to.equal(0);
      expect(report.pages_crawled).to.equal(5);
      expect(report.broken_links.map((i: { url: string }) => i.url)).to.deep.equal([gone]);
      expect(run.summary).to.include('2 binary files not sent (no links to read)').and.include('docs/other/logo.png');
    } finally {
      await clone.remove();
    }
  });

  it('site_root: a built site in a folder git ignores; its root-relative links resolve against that folder, so only the really missing asset is annotated', async () => {
    const clone = await shallowClone(fx.repo, fx.head, 1);
    try {
      await clone.write({
        '.gitignore': '_site/\n',
        '_site/index.html': '<link rel="stylesheet" href="/css/main.css">\n<a href="/about/">About</a>\n<img src="/img/none.png">\n',
        '_site/about/index.html': '<a href="/">Home</a> <a href="../css/main.css">css</a>',
        '_site/css/main.css': 'body{}',
      });
      const withRoot = await runAction('actions/deadlinks', inputs({ files: '_site/**/*.html', site_root: '_site/' }), { repository: 'acme/docs', githubApiUrl: gh.url, workspace: clone.dir });
      expect(withRoot.code, withRoot.stdout + withRoot.stderr).to.equal(0);
      expect(annotated(withRoot, 'error')).to.deep.equal(['_site/index.html:3:1']);
      const report = JSON.parse(await readFile(withRoot.outputs.report, 'utf8'));
      expect(report.broken_links.map((i: { url: string }) => i.url)).to.deep.equal(['_site/img/none.png']);

      const withoutRoot = await runAction('actions/deadlinks', inputs({ files: '_site/**/*.html' }), { repository: 'acme/docs', githubApiUrl: gh.url, workspace: clone.dir });
      expect(annotated(withoutRoot, 'error')).to.include.members(['_site/index.html:1:1', '_site/index.html:2:1', '_site/index.html:3:1']);
    } finally {
      await clone.remove();
    }
  });

  it('exclude and accept reach the API in every mode: an excluded URL is not checked, an accepted status works', async () => {
    const site = await runAction('actions/deadlinks', { url: `${ext.url}/`, mode: 'quick', api_url: svc.url, api_key: key, artifact: 'false', comment: 'false', exclude: '/missing$', accept: '410' }, { repository: 'acme/site', githubApiUrl: gh.url });
    const siteReport = JSON.parse(await readFile(site.outputs.report, 'utf8'));
    expect(siteReport.broken_count, site.stdout).to.equal(0);
    expect(site.code).to.equal(0);

    const clone = await shallowClone(fx.repo, fx.head, 1);
    try {
      const docs = await runAction('actions/deadlinks', inputs({ files: 'README.md', exclude: 'gone-new$', accept: '410' }), { repository: 'acme/docs', githubApiUrl: gh.url, workspace: clone.dir });
      const report = JSON.parse(await readFile(docs.outputs.report, 'utf8'));
      expect(report.broken_count, docs.stdout).to.equal(0);
      expect(report.summary.skipped_links).to.be.at.least(1);
    } finally {
      await clone.remove();
    }
  });
});
