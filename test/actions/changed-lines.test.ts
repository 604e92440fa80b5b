import { expect } from 'chai';
import { pullRequestChanges } from '../../actions/deadlinks/src/changed-lines/pull-request-diff.js';
import { parseGitDiff, type ChangedLines } from '../../actions/deadlinks/src/changed-lines/unified-diff.js';
import type { GithubEnv } from '../../actions/shared/src/github-env.js';
import { gitRepo, shallowClone, type Repo } from './support/git-repo.js';
import { pullFilesOf } from './support/docs-repository.js';
import { startGithubStandIn } from './support/github-stand-in.js';

const lines = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix} line ${i + 1}`).join('\n') + '\n';

describe('actions/deadlinks changed lines of a pull request', function () {
  this.timeout(60_000);
  let repo: Repo;
  let base: string;
  let head: string;
  const expected: Array<[string, Array<[number, number]>]> = [
    ['docs/a.md', [[3, 3], [7, 7]]],
    ['docs/new.md', [[1, 3]]],
    ['docs/renamed é.md', [[2, 2]]],
    ...Array.from({ length: 120 }, (_, i): [string, Array<[number, number]>] => [`docs/many/f-${String(i).padStart(3, '0')}.md`, [[1, 1]]]),
  ];
  const asObject = (m: ChangedLines) => Object.fromEntries([...m].filter(([, r]) => r === 'all' || r.length));

  before(async () => {
    repo = await gitRepo();
    await repo.write({ 'docs/a.md': lines(10, 'a'), 'docs/b.md': lines(5, 'b'), 'docs/old name.md': lines(4, 'renamed'), 'docs/gone.md': lines(3, 'gone') });
    base = await repo.commit('base');
    await repo.git('checkout', '-q', '-b', 'feature');
    const a = lines(10, 'a').split('\n');
    a[2] = 'a line 3, now with a [link](https://example.com/changed)';
    a.splice(6, 0, 'a new line after 6 with [another](docs/b.md)');
    a.splice(9, 1); // the old line 9
    const renamed = lines(4, 'renamed').split('\n');
    renamed[1] = 'renamed line 2, edited';
    await repo.write({
      'docs/a.md': a.join('\n'),
      'docs/new.md': lines(3, 'new'),
      'docs/old name.md': null,
      'docs/renamed é.md': renamed.join('\n'),
      'docs/gone.md': null,
      ...Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`docs/many/f-${String(i).padStart(3, '0')}.md`, 'one line\n'])),
    });
    head = await repo.commit('feature');
  });
  after(() => repo?.remove());

  const github = (apiUrl: string): GithubEnv => ({ repository: 'acme/docs', serverUrl: 'https://github.com', apiUrl, eventName: 'pull_request', job: 'links', sha: head, workspace: repo.dir, refNames: [] });

  it('parseGitDiff, on a real diff with a modified, an inserted and a deleted line, a new, a renamed (non-ASCII) and a deleted file, gives the added lines in the new files', async () => {
    const diff = await repo.git('-c', 'core.quotePath=true', 'diff', '--find-renames', '--unified=0', base, head);
    expect(diff, 'git quotes the non-ASCII name').to.include('"b/docs/renamed \\303\\251.md"');
    expect(asObject(parseGitDiff(diff))).to.deep.equal(Object.fromEntries(expected));
  });

  it('a checkout of the PR head with history: the diff comes from git against the merge base', async () => {
    await repo.git('checkout', '-q', 'feature');
    const c = await pullRequestChanges(repo.dir, { number: 7, headSha: head, baseSha: base }, github('http://127.0.0.1:9'), '');
    expect(c.from).to.equal(`git diff ${base.slice(0, 7)}..HEAD in the checkout`);
    expect(asObject(c.lines)).to.deep.equal(Object.fromEntries(expected));
  });

  it('the test merge commit actions/checkout makes (fetch-depth 2): the diff against its first parent, in the merge\'s own lines', async () => {
    await repo.git('checkout', '-q', '--detach', 'main');
    // The base branch moves on: a line on top of a.md shifts the PR's lines by one in the merge.
    await repo.write({ 'docs/a.md': `inserted on main\n${lines(10, 'a')}` });
    const mainTip = await repo.commit('main moves on');
    await repo.git('merge', '-q', '--no-ff', '-m', 'Merge feature into main', 'feature');
    const merge = (await repo.git('rev-parse', 'HEAD')).trim();
    const clone = await shallowClone(repo, merge, 2);
    try {
      const c = await pullRequestChanges(clone.dir, { number: 7, headSha: head, baseSha: base }, github('http://127.0.0.1:9'), '');
      expect(c.from).to.equal(`git diff ${mainTip.slice(0, 7)}..HEAD in the checkout`);
      expect(asObject(c.lines)).to.deep.equal({ ...Object.fromEntries(expected), 'docs/a.md': [[4, 4], [8, 8]] });
    } finally {
      await clone.remove();
      await repo.git('checkout', '-q', 'feature');
    }
  });

  it('a shallow checkout without the base: the pull request files API, every page, patches walked line by line; a file without a patch counts whole', async () => {
    const files = await pullFilesOf(repo, base, head);
    files.push({ filename: 'docs/huge.md', status: 'modified' });
    const gh = await startGithubStandIn({ pullFiles: { 7: files } });
    const clone = await shallowClone(repo, head, 1);
    try {
      const c = await pullRequestChanges(clone.dir, { number: 7, headSha: head, baseSha: base }, github(gh.url), 'ghs_installation');
      expect(c.from).to.equal('the pull request files API');
      expect(asObject(c.lines)).to.deep.equal({ ...Object.fromEntries(expected), 'docs/huge.md': 'all' });
      expect(gh.calls.filter((x) => x.path === '/repos/acme/docs/pulls/7/files').map((x) => x.query)).to.deep.equal(['per_page=100', 'per_page=100&page=2']);
    } finally {
      await clone.remove();
      await gh.close();
    }
  });

  it('without the base commit and without a token: fails saying what to do', async () => {
    const clone = await shallowClone(repo, head, 1);
    try {
      const err = await pullRequestChanges(clone.dir, { number: 7, headSha: head, baseSha: base }, github('http://127.0.0.1:9'), '').catch((e: Error) => e);
      expect((err as Error).message).to.match(/^changed_only needs the pull request's diff: the checkout lacks the base commit \(use fetch-depth: 2 or 0\)/);
    } finally {
      await clone.remove();
    }
  });
});
