import { documentKind } from './extract-document.js';
import { anchorMatcher } from './fragment-match.js';
import type { FragmentVerdict } from './report.js';
import type { RepositoryTarget } from './repository-links.js';

/**
 * The repository's files at one ref (the checkout, or a tag or branch the caller sent), with
 * the anchors of its rendered documents where they are known: what links into the repository
 * are checked against, without network.
 */
export class RepositorySnapshot {
  private readonly files: Set<string>;
  private readonly dirs = new Set<string>(['']);
  private readonly matchers = new Map<string, (fragment: string) => boolean>();

  constructor(
    paths: Iterable<string>,
    /** Per file: its headings' slugs and HTML ids and names (Markdown and HTML files). */
    private readonly anchors: ReadonlyMap<string, Iterable<string>>,
  ) {
    this.files = new Set(paths);
    for (const p of [...this.files, ...anchors.keys()]) {
      this.files.add(p);
      for (let i = p.indexOf('/'); i !== -1; i = p.indexOf('/', i + 1)) this.dirs.add(p.slice(0, i));
    }
  }

  /** `file`, `directory`, or null when nothing of that name is in the repository. */
  kind(path: string): 'file' | 'directory' | null {
    if (this.files.has(path)) return 'file';
    return this.dirs.has(path) ? 'directory' : null;
  }

  /** A link target exists: a file (not when written as a directory), or a directory. */
  has(target: RepositoryTarget): boolean {
    const kind = this.kind(target.path);
    return kind === 'directory' || (kind === 'file' && !target.directory);
  }

  /**
   * A fragment of a link to `path`: found among the file's anchors, missing, or not judged when
   * its anchors are unknown (a file not sent, not Markdown or HTML, or one that could not be read).
   * Markdown matches ignoring case, as GitHub's page script finds headings.
   */
  judge(path: string, fragment: string): FragmentVerdict {
    let matches = this.matchers.get(path);
    if (!matches) {
      const anchors = this.anchors.get(path);
      if (!anchors) return 'not_judged';
      matches = anchorMatcher(anchors, { ignoreCase: documentKind(path) === 'markdown' });
      this.matchers.set(path, matches);
    }
    return matches(fragment) ? 'found' : 'missing';
  }
}
