import { expect } from 'chai';
import { headLines } from '../../actions/deadlinks/src/fixes/head-lines.js';
import { gitRepo, shallowClone, type Repo } from './support/git-repo.js';

/**
 * Where a checkout's line is in the pull request's head, which review comments address: on
 * actions/checkout's default (the test merge commit at depth 1) the head is not in the
 * checkout, and a line is placed only when the checkout is the head itself.
 */
describe('actions/deadlinks headLines: a checkout line placed in the head only when it is known to be there', function () {
  this.timeout(30_000);
  const repos: Repo[] = [];
  after(async () => Promise.all(repos.map((r) => r.remove())));

  it('the merge commit at depth 1 (head not in the checkout, base moved above): no line is placed; the head itself at depth 1 and no head keep every line', async () => {
    const repo = await gitRepo();
    repos.push(repo);
    await repo.write({ 'README.md': 'one\n' });
    await repo.commit('base');
    await repo.git('checkout', '-q', '-b', 'feature');
    await repo.write({ 'README.md': 'one\n[x](http://a.test/old)\n' });
    const head = (await repo.commit('feature')).trim();
    await repo.git('checkout', '-q', 'main');
    await repo.write({ 'README.md': 'intro\none\n' });
    await repo.commit('base moves on');
    await repo.git('merge', '-q', '--no-ff', '-m', 'merge', 'feature');
    const mergeSha = (await repo.git('rev-parse', 'HEAD')).trim();

    const merge = await shallowClone(repo, mergeSha, 1);
    repos.push(merge);
    const inMerge = await headLines(merge.dir, head, 'README.md');
    expect(inMerge.text(3)).to.equal('[x](http://a.test/old)');
    expect(inMerge.inHead(3), 'the merge commit\'s line 3 is the head\'s line 2: not knowable here').to.equal(undefined);

    const headClone = await shallowClone(repo, head, 1);
    repos.push(headClone);
    expect((await headLines(headClone.dir, head, 'README.md')).inHead(2)).to.equal(2);
    expect((await headLines(merge.dir, undefined, 'README.md')).inHead(3)).to.equal(3);

    const deeper = await shallowClone(repo, mergeSha, 2);
    repos.push(deeper);
    expect((await headLines(deeper.dir, head, 'README.md')).inHead(3), 'with the head fetched, the shift is known').to.equal(2);
  });
});
