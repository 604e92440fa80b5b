/**
 * A generated Markdown repository for the repository-files bench: FILES files under docs/,
 * each with headings whose slugs repeat (`## Setup` twice: `#setup`, `#setup-1`), relative
 * links to other files, `#fragment` links into other files and into itself, an image, and
 * EXTERNAL_PER_FILE links to an external host (loopback). Some of each kind are broken, and the
 * generator says which: the ground truth every tool is scored against, per class.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const FILES = 200;
const SECTIONS = 10;
const PER_SECTION = FILES / SECTIONS;
const IMAGES = 40;
const EXTERNAL_URLS = 600;
const EXTERNAL_PER_FILE = 15;

/** What is broken in the repository, by class; repository paths (with `#fragment`) and URLs. */
export interface GroundTruth {
  file: Set<string>;
  image: Set<string>;
  fragmentSameFile: Set<string>;
  fragmentCrossFile: Set<string>;
  external: Set<string>;
  /** Every external URL the files link to, and how often. */
  externalLinks: Map<string, number>;
}

export type LinkClass = Exclude<keyof GroundTruth, 'externalLinks'>;

const fileOf = (n: number) => `docs/s${Math.floor(n / PER_SECTION)}/p${n % PER_SECTION}.md`;
/** `to` as a link from the file at `from` (both repository paths). */
const relative = (from: string, to: string) => path.posix.relative(path.posix.dirname(from), to);

/** External URL n is broken (404) when n is a multiple of 20. */
export const externalBroken = (n: number) => n % 20 === 0;

/** Writes the repository under `dir`; `externalBase` is the external host (`http://127.0.0.1:port`). */
export async function writeMarkdownRepo(dir: string, externalBase: string): Promise<{ paths: string[]; truth: GroundTruth }> {
  const truth: GroundTruth = { file: new Set(), image: new Set(), fragmentSameFile: new Set(), fragmentCrossFile: new Set(), external: new Set(), externalLinks: new Map() };
  const paths: string[] = [];
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  await mkdir(path.join(dir, 'img'), { recursive: true });
  for (let k = 0; k < IMAGES; k++) {
    await writeFile(path.join(dir, `img/pic-${k}.png`), png);
    paths.push(`img/pic-${k}.png`);
  }
  for (let n = 0; n < FILES; n++) {
    const me = fileOf(n);
    const lines: string[] = [`# Page ${n}`, '', `The ${n}th page of the generated documentation.`, ''];
    lines.push('## Setup', '', 'First setup notes.', '', '## Usage', '', 'How to use it.', '', '## Setup', '', 'Setup, again: GitHub names this one #setup-1.', '', '### Options', '', '## Usage', '', 'Usage, again (#usage-1).', '');
    lines.push('## Links', '');
    lines.push(`- [next page](${relative(me, fileOf((n + 1) % FILES))})`);
    lines.push(`- [its second setup](${relative(me, fileOf((n * 7 + 3) % FILES))}#setup-1)`);
    lines.push(`- [its usage](${relative(me, fileOf((n * 13 + 5) % FILES))}#usage-1)`);
    lines.push(`- [options here](#options) and [the second usage here](#usage-1)`);
    if (n % 10 === 0) {
      const gone = `docs/s${Math.floor(n / PER_SECTION)}/missing-${n}.md`;
      lines.push(`- [a page that is gone](${relative(me, gone)})`);
      truth.file.add(gone);
    }
    if (n % 10 === 5) {
      const target = fileOf((n * 3 + 1) % FILES);
      lines.push(`- [a heading that is gone](${relative(me, target)}#no-such-heading)`);
      truth.fragmentCrossFile.add(`${target}#no-such-heading`);
    }
    if (n % 7 === 0) {
      lines.push('- [a heading of this page that is gone](#not-here)');
      truth.fragmentSameFile.add(`${me}#not-here`);
    }
    const k = n % (IMAGES + 5);
    lines.push('', `![figure ${n}](${relative(me, `img/pic-${k}.png`)})`, '');
    if (k >= IMAGES) truth.image.add(`img/pic-${k}.png`);
    lines.push('## References', '');
    for (let j = 0; j < EXTERNAL_PER_FILE; j++) {
      const e = (n * EXTERNAL_PER_FILE + j * 37) % EXTERNAL_URLS;
      const url = `${externalBase}/ext/${e}`;
      lines.push(`- [reference ${j}](${url})`);
      truth.externalLinks.set(url, (truth.externalLinks.get(url) ?? 0) + 1);
      if (externalBroken(e)) truth.external.add(url);
    }
    await mkdir(path.join(dir, path.dirname(me)), { recursive: true });
    await writeFile(path.join(dir, me), lines.join('\n') + '\n');
    paths.push(me);
  }
  return { paths, truth };
}
