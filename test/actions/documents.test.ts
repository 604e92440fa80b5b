import { expect } from 'chai';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { planBatches, sendInBatches } from '../../actions/deadlinks/src/documents/batches.js';
import { findReadme, repositoryPaths } from '../../actions/deadlinks/src/documents/repository-paths.js';
import { matchWorkspaceFiles, readDocuments, type Document } from '../../actions/deadlinks/src/documents/workspace-files.js';
import { mergeReports } from '../../actions/deadlinks/src/report.js';
import type { DeadLinkReport, LinkItem } from '../../server/links/report.js';
import { withGate } from '../../server/links/report-counts.js';
import { ApiError } from '../../actions/shared/src/api-client.js';
import { gitRepo, type Repo } from './support/git-repo.js';

const doc = (p: string, bytes: number): Document => ({ path: p, content: 'x'.repeat(bytes) });

describe('actions/deadlinks repository files', function () {
  this.timeout(30_000);
  let repo: Repo;

  before(async () => {
    repo = await gitRepo();
    await repo.write({
      'README.md': '# r',
      'docs/a.md': 'a',
      'docs/deep/b.markdown': 'b',
      'docs/img.png': '\u0000PNG',
      'docs/skip.md': 's',
      'site/index.html': '<a href="x">',
      'node_modules/pkg/README.md': 'dependency',
      '.gitignore': '_site/\nnode_modules/\n',
      '_site/index.html': 'built',
      '_site/css/site.css': 'body{}',
    });
    await repo.symlink('/etc/hostname', 'docs/leak.md');
    await repo.commit('files');
    await repo.write({ 'docs/untracked.md': 'new, not yet added' });
  });
  after(() => repo?.remove());

  it('globs relative to the workspace with ! excludes; node_modules and .git skipped unless named; a symbolic link is not read', async () => {
    const m = await matchWorkspaceFiles(repo.dir, ['**/*.md', '**/*.markdown', 'site/**/*.html', '!docs/skip.md', '# a comment']);
    expect(m.paths).to.deep.equal(['README.md', 'docs/a.md', 'docs/deep/b.markdown', 'docs/untracked.md', 'site/index.html']);
    expect(m.skipped).to.deep.equal(['docs/leak.md (a symbolic link)']);
    const named = await matchWorkspaceFiles(repo.dir, ['node_modules/**/*.md']);
    expect(named.paths).to.deep.equal(['node_modules/pkg/README.md']);
    const err = await matchWorkspaceFiles(repo.dir, ['/etc/*.md']).catch((e: Error) => e);
    expect((err as Error).message).to.equal('input files: "/etc/*.md" must be relative to the workspace');
  });

  it('readDocuments: UTF-8 files as text, other text as base64 bytes, binary files (a NUL byte) not sent but named', async () => {
    await repo.write({ 'docs/latin1.txt': Buffer.from('caf\xe9', 'latin1') });
    const r = await readDocuments(repo.dir, ['docs/a.md', 'docs/img.png', 'docs/latin1.txt']);
    expect(r).to.deep.equal({
      documents: [
        { path: 'docs/a.md', content: 'a' },
        { path: 'docs/latin1.txt', content: Buffer.from('caf\xe9', 'latin1').toString('base64'), encoding: 'base64' },
      ],
      binary: ['docs/img.png'],
    });
  });

  it('repository paths: tracked and untracked files from git, plus the folder of a document git ignores', async () => {
    const { paths, from } = await repositoryPaths(repo.dir, ['_site/index.html', 'README.md']);
    expect(from).to.equal('git');
    expect(paths).to.include.members(['README.md', 'docs/untracked.md', 'docs/leak.md', '_site/index.html', '_site/css/site.css', '.gitignore']);
    expect(paths.some((p) => p.startsWith('node_modules/'))).to.equal(false);
  });

  it('repository paths outside git: a walk that skips .git and node_modules', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'plain-'));
    try {
      await mkdir(path.join(dir, 'docs'));
      await mkdir(path.join(dir, 'node_modules'));
      await writeFile(path.join(dir, 'docs', 'a.md'), 'a');
      await writeFile(path.join(dir, 'node_modules', 'x.md'), 'x');
      expect(await repositoryPaths(dir, [])).to.deep.equal({ paths: ['docs/a.md'], from: 'walk' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('findReadme follows GitHub\'s order: .github/, the root, docs/', () => {
    expect(findReadme(['docs/README.md', 'README.md', '.github/readme.md'])).to.equal('.github/readme.md');
    expect(findReadme(['docs/README.md', 'Readme.markdown'])).to.equal('Readme.markdown');
    expect(findReadme(['docs/README.md'])).to.equal('docs/README.md');
    expect(findReadme(['README.rst'])).to.equal(undefined);
  });
});

describe('actions/deadlinks batches of documents', () => {
  it('planBatches keeps path order, fills each call to the limits, and sets aside a document larger than a call', () => {
    const docs = [doc('a.md', 300), doc('b.md', 300), doc('c.md', 500), doc('d.md', 2000), doc('e.md', 10), doc('f.md', 10)];
    const { batches, tooLarge } = planBatches(docs, { maxDocuments: 2, maxBytes: 1000 });
    expect(batches.map((b) => b.map((d) => d.path))).to.deep.equal([['a.md', 'b.md'], ['c.md', 'e.md'], ['f.md']]);
    expect(tooLarge.map((d) => d.path)).to.deep.equal(['d.md']);
  });

  it('sendInBatches re-plans with the limits a 413 names, skips batches with nothing to check, and answers every result', async () => {
    const sent: string[][] = [];
    const limit = { max_documents: 2, max_bytes: 1000 };
    const run = await sendInBatches(
      ['a', 'b', 'c', 'd', 'e'].map((p) => doc(`${p}.md`, 100)),
      { maxDocuments: 10, maxBytes: 10_000 },
      async (batch) => {
        if (batch.length > limit.max_documents) throw new ApiError(413, 'too many documents', { error: 'too many documents', limit });
        sent.push(batch.map((d) => d.path));
        return batch.length;
      },
      (batch) => !batch.every((d) => d.path === 'c.md' || d.path === 'd.md'),
    );
    expect(sent).to.deep.equal([['a.md', 'b.md'], ['e.md']]);
    expect(run.results).to.deep.equal([2, 1]);
    expect(run.learned).to.deep.equal({ maxDocuments: 2, maxBytes: 1000 });
  });

  it('sendInBatches halves a batch on a 413 that names no limit, and gives up on a single document', async () => {
    const sizes: number[] = [];
    const err = await sendInBatches([doc('a.md', 1), doc('b.md', 1), doc('c.md', 1), doc('d.md', 1)], { maxDocuments: 10, maxBytes: 10_000 }, async (batch) => {
      sizes.push(batch.length);
      throw new ApiError(413, 'POST /api/deadlinks/documents failed (413): request entity too large');
    }).catch((e: Error) => e);
    expect(sizes).to.deep.equal([4, 2, 1]);
    expect((err as ApiError).status).to.equal(413);
  });
});

describe('actions/deadlinks merged reports', () => {
  const item = (url: string, file: string, line: number, extra: Partial<LinkItem> = {}): LinkItem => ({
    url,
    status: 404,
    kind: 'http_404',
    type: 'external',
    resource: 'page',
    is_image: false,
    found_on: [file],
    redirect_chain: [],
    final_url: url,
    file,
    line,
    column: 1,
    locations: [{ file, line, column: 1 }],
    ...extra,
  });
  const report = (broken: LinkItem[], checked: number): DeadLinkReport => ({
    target: 'https://github.com/acme/docs',
    mode: 'documents',
    pages_crawled: 2,
    total_links_checked: checked,
    broken_count: broken.length,
    broken_links: broken,
    redirects: [],
    bot_blocked: [],
    warnings: [],
    not_checked: [],
    summary: { health_score: 0, broken_places: broken.length, broken_images: 0, redirects_found: 0, bot_blocked: 0, warnings: 0, internal_links: 3, external_links: checked - 3, skipped_links: 1, cached_results: 0, rendered_pages: 0, not_checked: 0, duration_ms: 10 },
    checked_at: '2026-01-01T00:00:00.000Z',
  });

  it('one report from two calls: a URL both listed becomes one item with both places; counts add up less the repeat; the health score is recomputed', () => {
    const merged = mergeReports([
      report([item('https://x.example/gone', 'docs/a.md', 4), item('https://x.example/img.png', 'docs/a.md', 9, { is_image: true })], 10),
      report([item('https://x.example/gone', 'site/b.html', 2)], 10),
    ]);
    expect(merged.broken_count).to.equal(2);
    expect(merged.total_links_checked).to.equal(19);
    expect(merged.summary.health_score).to.equal(89.5);
    expect(merged.summary.broken_images).to.equal(1);
    expect(merged.summary.internal_links).to.equal(6);
    expect(merged.pages_crawled).to.equal(4);
    const gone = merged.broken_links.find((i) => i.url === 'https://x.example/gone');
    expect(gone?.locations).to.deep.equal([{ file: 'docs/a.md', line: 4, column: 1 }, { file: 'site/b.html', line: 2, column: 1 }]);
    expect(gone?.found_on).to.deep.equal(['docs/a.md', 'site/b.html']);
  });

  it('with the lists of checked links, a link two calls checked counts once', () => {
    const merged = mergeReports([
      { ...report([item('https://x.example/gone', 'docs/a.md', 4)], 3), checked_urls: ['docs/guide.md', 'https://x.example/gone', 'https://x.example/ok'] },
      { ...report([], 2), checked_urls: ['docs/guide.md', 'https://x.example/ok'] },
    ]);
    expect(merged.total_links_checked).to.equal(3);
    expect(merged.checked_urls).to.deep.equal(['docs/guide.md', 'https://x.example/gone', 'https://x.example/ok']);
    expect(merged.summary.health_score).to.equal(66.7);
  });

  it('withGate judges the whole report with a decimal threshold; without a gate there is no pass field', () => {
    const merged = mergeReports([report([item('https://x.example/gone', 'docs/a.md', 4)], 200)]);
    merged.summary.health_score = 99.5;
    expect(withGate(merged, { threshold: 99.5 })).to.include({ pass: true });
    expect(withGate(merged, { threshold: 99.6 })).to.include({ pass: false });
    expect(withGate({ ...merged, pass: true }, {})).not.to.have.property('pass');
  });
});
