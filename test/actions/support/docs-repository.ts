import type { PullFile } from './github-stand-in.js';
import { gitRepo, type Repo } from './git-repo.js';

/** Where a link is written in the fixture: file, 1-based line and the column its text starts at. */
export interface Place {
  file: string;
  line: number;
  column: number;
}

/** The line and column (1-based) where `needle` starts in `text`. */
export function placeOf(file: string, text: string, needle: string): Place {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`${needle} is not in ${file}`);
  const before = text.slice(0, at).split('\n');
  return { file, line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/**
 * A documentation repository with a real history: on `main`, a README, 250 Markdown pages
 * linking to each other, a built HTML site, and old broken links of every kind (a missing
 * file, a missing heading, a gone external page); on `feature`, a pull request that adds
 * or changes a few links, some broken. `ext` is a loopback "external" site
 * (`/ok`, `/gone` 410, anything else 404).
 */
export async function docsRepository(ext: string) {
  const repo = await gitRepo();
  const pages = Object.fromEntries(
    Array.from({ length: 250 }, (_, i) => {
      const next = `page-${String((i + 1) % 250).padStart(3, '0')}.md`;
      const body = [`# Page ${i}`, '', `Next: [page](${next}) · [guide](../guide.md#install) · [home](/README.md)`, ''];
      if (i === 7) body.push('Old: [retired](retired.md)', '');
      return [`docs/pages/page-${String(i).padStart(3, '0')}.md`, body.join('\n')];
    }),
  );
  const main: Record<string, string> = {
    'README.md': [
      '# Acme docs',
      '',
      'See the [guide](docs/guide.md) and how to [install](docs/guide.md#install).',
      `Old: [gone](${ext}/gone)`,
      '[Source of the guide](https://github.com/acme/docs/blob/main/docs/guide.md)',
      '',
    ].join('\n'),
    'docs/guide.md': ['# Guide', '', '## Install', '', 'Run it. See [the API](api.md) and [home](../README.md).', '[Somewhere](#nowhere)', `[External](${ext}/ok)`, ''].join('\n'),
    'docs/api.md': ['# API', '', '## Endpoints', '', '[Back](guide.md#install)', ''].join('\n'),
    'site/index.html': '<!doctype html>\n<html><body>\n<a href="about.html">About</a>\n<a href="missing.html">Old missing</a>\n<img src="/site/img/logo.png" alt="">\n</body></html>\n',
    'site/about.html': '<!doctype html>\n<html><body>\n<h1 id="team">Team</h1>\n<a href="index.html">Home</a>\n</body></html>\n',
    'site/img/logo.png': 'not really a png',
    ...pages,
  };
  await repo.write(main);
  const base = await repo.commit('docs');

  await repo.git('checkout', '-q', '-b', 'feature');
  const changed: Record<string, string> = {
    'README.md': main['README.md'] + `New: [broken new](${ext}/gone-new) and [fine](docs/api.md)\n`,
    'docs/guide.md': main['docs/guide.md'].replace('and [home](../README.md).', 'and [setup](setup.md).'),
    'docs/new.md': ['# New page', '', '[Jump](#new-page) [bad jump](guide.md#no-such-heading)', `[External](${ext}/ok)`, ''].join('\n'),
    'site/about.html': main['site/about.html'].replace('<a href="index.html">Home</a>', '<a href="index.html">Home</a> <a href="nope.html">Nope</a>'),
  };
  await repo.write(changed);
  const head = await repo.commit('feature: new and changed links');
  await repo.git('checkout', '-q', 'main');

  /** Exactly the links the pull request adds or changes. */
  const changedLinks = {
    broken: [
      placeOf('README.md', changed['README.md'], `[broken new](${ext}/gone-new)`),
      placeOf('docs/guide.md', changed['docs/guide.md'], '[setup](setup.md)'),
      placeOf('site/about.html', changed['site/about.html'], '<a href="nope.html">'),
    ],
    warnings: [placeOf('docs/new.md', changed['docs/new.md'], '[bad jump](guide.md#no-such-heading)')],
  };
  /** The broken links that were there before the pull request. */
  const oldBroken = [
    placeOf('README.md', main['README.md'], `[gone](${ext}/gone)`),
    placeOf('site/index.html', main['site/index.html'], '<a href="missing.html">'),
    placeOf('docs/pages/page-007.md', main['docs/pages/page-007.md'], '[retired](retired.md)'),
  ];
  return { repo, base, head, files: Object.keys({ ...main, ...changed }).length, changedLinks, oldBroken };
}

/** The pull request's files as GitHub's files API lists them, from the real diff: name, status and patch (hunks). */
export async function pullFilesOf(repo: Repo, base: string, head: string): Promise<PullFile[]> {
  const status = await repo.git('-c', 'core.quotePath=false', 'diff', '--name-status', '--find-renames', base, head);
  const files: PullFile[] = [];
  for (const row of status.trim().split('\n')) {
    const [code, ...names] = row.split('\t');
    const patch = await repo.git('-c', 'core.quotePath=false', 'diff', '--find-renames', base, head, '--', ...names);
    const kind = code.startsWith('R') ? 'renamed' : code === 'A' ? 'added' : code === 'D' ? 'removed' : 'modified';
    files.push({ filename: names.at(-1) ?? '', status: kind, patch: patch.slice(patch.indexOf('@@')) });
  }
  return files;
}
