import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { marked, type Tokens } from 'marked';
import { suggestedLine } from '../../actions/deadlinks/src/fixes/suggested-line.js';
import { startTestService, type TestService } from '../support/service.js';
import { startWaybackStandIn } from '../support/wayback-stand-in.js';
import { html, redirect, serve, status, type FixtureServer } from '../links/fixture-site.js';
import { pullFilesOf } from './support/docs-repository.js';
import { gitRepo, shallowClone, type Repo } from './support/git-repo.js';
import { startGithubStandIn, suggestionOf } from './support/github-stand-in.js';
import { runAction } from './support/run-action.js';

/** The archive: a snapshot for every URL holding `/gone`, none for the rest. */
const archiveStandIn = () =>
  startWaybackStandIn((target) => (target.includes('/gone') ? { url: `http://web.archive.org/web/20130919044612/${target}`, timestamp: '20130919044612' } : undefined));


describe('actions/deadlinks suggestedLine (the one rule for what a suggestion may change)', () => {
  const old = 'http://a.test/old';
  const to = 'https://b.test/new';
  it('replaces only the URL, keeping the Markdown around it and the place\'s own #fragment', () => {
    expect(suggestedLine(`See [the guide](${old}) today.`, old, to)).to.deep.equal({ kind: 'ok', line: `See [the guide](${to}) today.` });
    expect(suggestedLine(`Deep [part](${old}#part).`, old, `${to}#other`)).to.deep.equal({ kind: 'ok', line: `Deep [part](${to}#part).` });
    expect(suggestedLine(`A bare ${old}.`, old, to)).to.deep.equal({ kind: 'ok', line: `A bare ${to}.` });
  });
  it('refuses a URL written twice, one inside a longer URL, and one not written verbatim', () => {
    expect(suggestedLine(`[${old}](${old})`, old, to)).to.deep.equal({ kind: 'skipped', why: 'ambiguous' });
    expect(suggestedLine(`[x](${old}/deeper)`, old, to)).to.deep.equal({ kind: 'skipped', why: 'not_verbatim' });
    expect(suggestedLine(`[x](https://web.archive.org/web/1/${old})`, old, to)).to.deep.equal({ kind: 'skipped', why: 'not_verbatim' });
    expect(suggestedLine('<a href="http://a.test/old?a=1&amp;b=2">', 'http://a.test/old?a=1&b=2', to)).to.deep.equal({ kind: 'skipped', why: 'not_verbatim' });
  });
});

describe('actions/deadlinks one-click fixes: one review of suggestion blocks on a pull request (changed_only, as the runner runs the action)', function () {
  this.timeout(180_000);
  let svc: TestService;
  let gh: Awaited<ReturnType<typeof startGithubStandIn>>;
  let ext: FixtureServer;
  let archive: Awaited<ReturnType<typeof archiveStandIn>>;
  let repo: Repo;
  let merge: Repo;
  let key: string;
  let base: string;
  let head: string;
  let lines: string[];
  const pullFiles: Parameters<typeof startGithubStandIn>[0] = { pullFiles: {} };
  const inputs = (extra: Record<string, string> = {}) => ({ files: '**/*.md', changed_only: 'true', api_url: svc.url, api_key: key, github_token: 'ghs_installation', artifact: 'false', fail_on: 'never', ...extra });
  const pr = (workspace: string, extra = {}) => ({ repository: 'acme/docs', githubApiUrl: gh.url, pullRequest: 5, headSha: head, baseSha: base, workspace, ...extra });

  before(async () => {
    const routes: Record<string, string | ReturnType<typeof status>> = {
      '/old': redirect('/new', 301),
      '/new': html('<h2 id="part">Part</h2>'),
      '/temp': redirect('/new', 302),
      '/gone': status(404),
      '/lost': status(404),
    };
    for (let i = 0; i < 1000; i++) routes[`/r/${i}`] = i % 2 ? status(404) : redirect(`/new?n=${i}`, 308);
    ext = await serve(routes);
    archive = await archiveStandIn();
    const x = ext.url;
    repo = await gitRepo();
    const main = ['# Docs', '', `Unchanged: [old](${x}/old)`, ''].join('\n');
    await repo.write({ 'README.md': main + '\n' });
    base = await repo.commit('docs');
    await repo.git('checkout', '-q', '-b', 'feature');
    lines = [
      '# Docs',
      '',
      `Unchanged: [old](${x}/old)`,
      '',
      `Moved: see [the guide](${x}/old) today.`,
      `Deep: [part](${x}/old#part).`,
      `Twice: [${x}/old](${x}/old)`,
      `Gone: <${x}/gone>`,
      `Temp: [t](${x}/temp)`,
      `Lost: [l](${x}/lost)`,
    ];
    await repo.write({
      'README.md': lines.join('\n') + '\n',
      'docs/many.md': Array.from({ length: 1000 }, (_, i) => `- [link ${i}](${x}/r/${i})`).join('\n') + '\n',
    });
    head = await repo.commit('feature: links that moved, one gone');
    // The base moves on above the pull request's lines: in the test merge commit they sit two lines lower than in the head.
    await repo.git('checkout', '-q', 'main');
    await repo.write({ 'README.md': ['# Docs', '', 'Two lines added on main', 'while the pull request was open.', `Unchanged: [old](${x}/old)`, ''].join('\n') + '\n' });
    await repo.commit('main: an introduction');
    // The test merge commit actions/checkout checks out on pull_request, with fetch-depth: 2.
    await repo.git('checkout', '-q', '--detach', 'main');
    await repo.git('merge', '-q', '--no-ff', '-m', 'Merge feature', 'feature');
    merge = await shallowClone(repo, (await repo.git('rev-parse', 'HEAD')).trim(), 2);
    pullFiles.pullFiles = { 5: await pullFilesOf(repo, base, head) };
    gh = await startGithubStandIn(pullFiles);
    svc = await startTestService({ GITHUB_API_URL: gh.url, ARCHIVE_API_URL: archive.url });
    key = await svc.newKey('business');
  });
  after(async () => {
    await Promise.all([merge?.remove(), repo?.remove(), ext?.close(), archive?.close()]);
    await svc?.close();
    await gh?.close();
  });

  it('a pull request adding moved and gone links (its base moved on): one review, a suggestion per fixable place on the head\'s line that changes only the URL; the comment says what was offered and what is left', async () => {
    const x = ext.url;
    const run = await runAction('actions/deadlinks', inputs({ files: 'README.md' }), pr(merge.dir));
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(gh.reviews, 'one review per run').to.have.length(1);
    const [review] = gh.reviews;
    expect(review.event).to.equal('COMMENT');
    expect(review.commit_id).to.equal(head);
    const got = review.comments.map((c) => ({ path: c.path, line: c.line, side: c.side, suggestion: suggestionOf(c.body) }));
    expect(got).to.deep.equal([
      { path: 'README.md', line: 8, side: 'RIGHT', suggestion: `Gone: <https://web.archive.org/web/20130919044612/${x}/gone>` },
      { path: 'README.md', line: 5, side: 'RIGHT', suggestion: `Moved: see [the guide](${x}/new) today.` },
      { path: 'README.md', line: 6, side: 'RIGHT', suggestion: `Deep: [part](${x}/new#part).` },
    ]);
    // Nothing but the URL changes: the suggestion is the head's line with the one URL replaced.
    for (const c of review.comments) {
      const before = lines[c.line - 1];
      const after = suggestionOf(c.body) ?? '';
      const [from, to] = [before, after].map((l) => l.replace(/(?:https?:\/\/[^\s)>]+)/g, 'URL'));
      expect(from, `${c.path}:${c.line}`).to.equal(to);
    }
    expect(review.comments[0].body).to.include('Wayback Machine');

    const comment = gh.comments.find((c) => c.issue === 5)?.body ?? '';
    expect(comment).to.include('**Fixed for you:** 3 fixes (2 permanent redirects, 1 archived copy) offered as suggestions in [this run\'s review](');
    expect(comment).to.include('1 known fix could not be offered as a suggestion').and.include('`README.md:9`').and.include('the URL is on the line more than once');
    expect(comment).to.include('✋ **Left for you:** 1 broken link with no suggestion to accept (of the 2 listed below; 🛠️ marks a known fix).');
    expect(comment).to.match(/\| <http:[^>]+\/gone> \| ❌ `404` · 🛠️ fix: archived copy \|/);
    expect(archive.asked, 'the archive is asked for broken links only').to.have.members([`${x}/gone`, `${x}/lost`]);
    // The annotation on the broken line names the known fix too.
    expect(run.commands.find((c) => c.startsWith('::error') && c.includes(`${x}/gone`))).to.include(`fix: https://web.archive.org/web/20130919044612/${x}/gone (archived copy)`);
  });

  it('a second run on the same lines: no review at all (nothing new), and the comment still says what was offered', async () => {
    const run = await runAction('actions/deadlinks', inputs({ files: 'README.md' }), pr(merge.dir));
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(gh.reviews).to.have.length(1);
    expect(gh.calls.filter((c) => c.method === 'GET' && c.path === '/repos/acme/docs/pulls/5/comments')).to.have.length(2);
    const comment = gh.comments.find((c) => c.issue === 5)?.body ?? '';
    expect(comment).to.include('**Fixed for you:** 3 fixes (2 permanent redirects, 1 archived copy) offered as suggestions in earlier reviews');
  });

  it('a new push adding one more moved link: a review with only the new suggestion; the earlier ones on unchanged lines are not repeated', async () => {
    await repo.git('checkout', '-q', 'feature');
    await repo.write({ 'README.md': [...lines, `Again: [once more](${ext.url}/old)`].join('\n') + '\n' });
    const pushed = await repo.commit('feature: one more moved link');
    await repo.git('checkout', '-q', '--detach', 'main');
    const clone = await shallowClone(repo, pushed, 1);
    try {
      pullFiles.pullFiles = { ...pullFiles.pullFiles, 5: await pullFilesOf(repo, base, pushed) };
      const run = await runAction('actions/deadlinks', inputs({ files: 'README.md' }), pr(clone.dir, { headSha: pushed }));
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(gh.reviews).to.have.length(2);
      const added = gh.reviews[1];
      expect(added.commit_id).to.equal(pushed);
      expect(added.comments.map((c) => [c.path, c.line, suggestionOf(c.body)])).to.deep.equal([['README.md', 11, `Again: [once more](${ext.url}/new)`]]);
      const comment = gh.comments.find((c) => c.issue === 5)?.body ?? '';
      expect(comment).to.include('**Fixed for you:** 4 fixes (3 permanent redirects, 1 archived copy) offered as suggestions in [this run\'s review](').and.include('3 were offered by an earlier run and are not repeated');
    } finally {
      await clone.remove();
    }
  });

  it('a fork\'s read-only token: GitHub refuses the review; the run still passes, warns, and the summary says what could not be offered', async () => {
    // A pull request of its own: the earlier runs' suggestions on PR 5 would rightly leave nothing to post.
    pullFiles.pullFiles = { ...pullFiles.pullFiles, 8: await pullFilesOf(repo, base, head) };
    const reviews = gh.reviews.length;
    const run = await runAction('actions/deadlinks', inputs({ files: 'README.md', github_token: 'ghs_readonly_fork' }), pr(merge.dir, { pullRequest: 8 }));
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(gh.reviews).to.have.length(reviews);
    expect(run.commands.some((c) => c.startsWith('::warning::Could not post the suggestions: GitHub refused the review (403)'))).to.equal(true);
    expect(run.summary).to.include('🛠️ 3 fixes (2 permanent redirects, 1 archived copy) could not be offered as suggestions: GitHub refused the review (403)');
  });

  it('suggestions: false asks the API for no fixes and posts no review', async () => {
    const reviews = gh.reviews.length;
    const run = await runAction('actions/deadlinks', inputs({ files: 'README.md', suggestions: 'false', comment: 'false' }), pr(merge.dir));
    const report = JSON.parse(await readFile(run.outputs.report, 'utf8'));
    expect(report.redirects.length).to.be.greaterThan(0);
    expect([...report.broken_links, ...report.redirects].some((i: { suggestion?: unknown }) => i.suggestion)).to.equal(false);
    expect(gh.reviews).to.have.length(reviews);
  });

  it('a file GitHub shows no patch of (too large): its fixes are not offered, since a comment off the diff would sink the whole review, and the comment says why', async () => {
    const clone = await shallowClone(repo, head, 1);
    try {
      await clone.write({ 'docs/many.md': (await readFile(`${clone.dir}/docs/many.md`, 'utf8')).split('\n').slice(0, 4).join('\n') + '\n' });
      pullFiles.pullFiles = { ...pullFiles.pullFiles, 11: [{ filename: 'docs/many.md', status: 'modified' }] };
      const reviews = gh.reviews.length;
      const run = await runAction('actions/deadlinks', inputs({ files: 'docs/many.md' }), pr(clone.dir, { pullRequest: 11 }));
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(gh.reviews).to.have.length(reviews);
      const body = gh.comments.find((c) => c.issue === 11)?.body ?? '';
      expect(body).to.include('2 known fixes could not be offered as a suggestion').and.include('`docs/many.md:1`').and.include('GitHub shows no diff of the file to comment on');
      expect(body).not.to.include('Fixed for you');
    } finally {
      await clone.remove();
    }
  });

  for (const n of [10, 1000]) {
    it(`${n.toLocaleString('en-US')} changed links, half moved and half broken without a copy: the comment fits, counts the offered fixes and what is left, and the review carries at most 100`, async () => {
      const clone = await shallowClone(repo, head, 1);
      try {
        await clone.write({ 'docs/many.md': (await readFile(`${clone.dir}/docs/many.md`, 'utf8')).split('\n').slice(0, n).join('\n') + '\n' });
        const patch = `@@ -0,0 +1,${n} @@\n` + (await readFile(`${clone.dir}/docs/many.md`, 'utf8')).trimEnd().split('\n').map((l) => `+${l}`).join('\n');
        pullFiles.pullFiles = { ...pullFiles.pullFiles, [n]: [{ filename: 'docs/many.md', status: 'added', patch }] };
        const reviewsBefore = gh.reviews.length;
        const run = await runAction('actions/deadlinks', inputs({ files: 'docs/many.md' }), pr(clone.dir, { pullRequest: n }));
        expect(run.code, run.stdout + run.stderr).to.equal(0);
        const offered = Math.min(100, n / 2);
        expect(gh.reviews.length - reviewsBefore).to.equal(1);
        expect(gh.reviews.at(-1)?.comments).to.have.length(offered);
        const body = gh.comments.find((c) => c.issue === n)?.body ?? '';
        expect(body.length).to.be.at.most(65_536);
        expect(body).to.include(`**Fixed for you:** ${offered} fixes (${offered} permanent redirects) offered as suggestions in [this run's review](`);
        expect(body).to.include(`✋ **Left for you:** ${(n / 2).toLocaleString('en-US')} broken links with no suggestion to accept (listed below).`);
        if (n > 200) expect(body).to.include(`${(n / 2 - 100).toLocaleString('en-US')} more fixes past the 100 new suggestions a review carries will be offered by the next run.`);
        // What is left is listed (or counted where it does not fit): the table rows and the cut note add up to the broken links.
        const problemTables = marked.lexer(body).filter((t): t is Tokens.Table => t.type === 'table' && t.header[1]?.text === 'Status');
        const rows = problemTables.reduce((k, t) => k + t.rows.length, 0);
        const cut = Number(/: ([\d,]+) broken links/.exec(body.split('✂️')[1] ?? '')?.[1].replace(/,/g, '') ?? 0);
        expect(rows + cut).to.equal(n / 2);
        if (n > 200) {
          // The next run moves on to the next hundred, not the same ones again.
          const next = await runAction('actions/deadlinks', inputs({ files: 'docs/many.md' }), pr(clone.dir, { pullRequest: n }));
          expect(next.code, next.stdout + next.stderr).to.equal(0);
          const [first, second] = gh.reviews.slice(-2).map((r) => new Set(r.comments.map((c) => c.line)));
          expect(second.size).to.equal(100);
          expect([...second].filter((l) => first.has(l))).to.deep.equal([]);
          const again = gh.comments.find((c) => c.issue === n)?.body ?? '';
          expect(again).to.include('**Fixed for you:** 200 fixes (200 permanent redirects) offered as suggestions in [this run\'s review](').and.include('100 were offered by an earlier run');
          expect(again).to.include(`${(n / 2 - 200).toLocaleString('en-US')} more fixes past the 100 new suggestions`);
        }
      } finally {
        await clone.remove();
      }
    });
  }
});
