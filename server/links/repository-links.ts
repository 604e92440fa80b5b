/** A link into the repository, resolved to a path from its root. */
export interface RepositoryTarget {
  /** Path from the repository root, percent-decoded, no leading or trailing slash ('' is the root). */
  path: string;
  /** Written with a trailing slash: a directory is meant. */
  directory: boolean;
  /** The fragment as written (no `#`); '' when none. */
  fragment: string;
}

/** True for links without a scheme and not protocol-relative: they point into the repository. */
export const isRelativeLink = (value: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(value) && !value.startsWith('//');

/** A relative link that climbs above the repository root: a page of the repository's site on GitHub. */
export interface RepositoryPage {
  /** Relative to the repository's web address (`https://github.com/o/r/`): '' is its home, `issues`, `wiki`, `../other-repo`; query kept. */
  aboveRoot: string;
  fragment: string;
}

// Relative links resolve like a browser on GitHub's page of the file, …/<owner>/<repo>/blob/<ref>/<dir>/,
// root-relative ones (`/docs/x.md`) against …/blob/<ref>/. So `..` above the root leaves the files for
// the repository's own pages: `../../` from the root is its home, `../../issues` its issues.
const HOME = 'https://repository.invalid/owner/repo/';
const ROOT = `${HOME}blob/HEAD/`;

/**
 * Where a relative link written in the Markdown file `fromPath` points, as GitHub resolves it:
 * a file or directory of the repository, or, when `..` climbs above the root, a page of the
 * repository's site. Query strings of files are dropped (the file is the same whatever the query).
 */
export function resolveInRepository(value: string, fromPath: string): RepositoryTarget | RepositoryPage {
  const base = new URL(encodePath(fromPath), ROOT);
  let url: URL;
  try {
    url = value.startsWith('/') || value.startsWith('\\') ? new URL(value.replace(/^[/\\]+/, ''), ROOT) : new URL(value, base);
  } catch {
    // A value no URL parser takes cannot name a file: kept as written, so it is reported missing.
    return { path: value, directory: false, fragment: '' };
  }
  const fragment = url.hash.replace(/^#/, '');
  const root = new URL(ROOT);
  if (url.pathname.startsWith(root.pathname)) {
    const rest = url.pathname.slice(root.pathname.length);
    return { path: safeDecode(rest.replace(/\/+$/, '')), directory: rest.endsWith('/'), fragment };
  }
  const home = new URL(HOME).pathname;
  const owner = home.slice(0, home.indexOf('/', 1) + 1);
  const above = url.pathname === home.slice(0, -1) ? '' : url.pathname.startsWith(home) ? url.pathname.slice(home.length) : url.pathname.startsWith(owner) ? `../${url.pathname.slice(owner.length)}` : `../../${url.pathname.slice(1)}`;
  return { aboveRoot: above + url.search, fragment };
}

/** Whether a repository page is the repository's home (`../../` from the root, `/../../`). */
export const isRepositoryHome = (page: RepositoryPage): boolean => page.aboveRoot === '' || page.aboveRoot.startsWith('?');

// An HTML document is read as a browser reads it from the site it belongs to, served from its root.
const SITE = 'https://site.invalid/';

/**
 * Where a relative link written in the HTML document `fromPath` points, as a browser resolves
 * it on a site served from `root` (a folder of the repository; '' is the repository root):
 * against the document's URL, or its `<base href>` (resolved against the document's URL; one
 * that does not parse is ignored, as browsers ignore it). Root-relative links start at `root`;
 * `..` above it stays at it, as URL resolution does. A link the base sends to another origin
 * is that absolute URL; one that does not parse at all, null. Query strings are dropped.
 */
export function resolveInSite(value: string, fromPath: string, root: string, baseHref?: string): RepositoryTarget | { url: string } | null {
  const page = new URL(encodePath(root ? fromPath.slice(root.length + 1) : fromPath), SITE);
  let base = page;
  if (baseHref?.trim()) {
    try {
      base = new URL(baseHref.trim(), page);
    } catch {
      // an unparsable <base href> is ignored
    }
  }
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== new URL(SITE).origin) return { url: url.href };
  const inSite = safeDecode(url.pathname.slice(1).replace(/\/+$/, ''));
  return { path: [root, inSite].filter(Boolean).join('/'), directory: url.pathname.endsWith('/'), fragment: url.hash.replace(/^#/, '') };
}

/** The site folder an HTML document belongs to: `siteRoot` when the document lies under it, else the repository root (''). */
export const siteOf = (path: string, siteRoot: string | undefined): string => (siteRoot && path.startsWith(`${siteRoot}/`) ? siteRoot : '');

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // a malformed escape is kept as written (GitHub shows such links as they are)
  }
}

/** The repository whose `blob/`/`tree/` URLs are checked against the paths instead of fetched. */
export interface RepositoryRef {
  host: string;
  owner: string;
  name: string;
}

export function repositoryRef(repositoryUrl: string): RepositoryRef | null {
  const u = new URL(repositoryUrl);
  const [owner, name] = u.pathname.split('/').filter(Boolean);
  if (!owner || !name) return null;
  return { host: u.host.toLowerCase(), owner: owner.toLowerCase(), name: name.replace(/\.git$/i, '').toLowerCase() };
}

/** Views of a file or directory at a ref: `/<owner>/<repo>/<view>/<ref>/<path>`. */
const VIEWS = new Set(['blob', 'tree', 'raw', 'blame']);

/** A link into the repository's files at a ref: the ref as written in the URL and the path under it. */
export interface RefTarget extends RepositoryTarget {
  ref: string;
}

/**
 * A URL into the repository's own files (`…/blob/<ref>/<path>`, `/tree/`, `/raw/`, `/blame/`,
 * and raw.githubusercontent.com for github.com): every candidate split of ref and path, since a
 * branch name may hold slashes (`release/v2/docs/x.md`), shortest ref first. Null for any other URL.
 */
export function repositoryFileLink(url: URL, repo: RepositoryRef): RefTarget[] | null {
  const segments = url.pathname.split('/').slice(1);
  let rest: string[];
  const host = url.host.toLowerCase();
  const same = (owner: string | undefined, name: string | undefined) => owner?.toLowerCase() === repo.owner && name?.toLowerCase() === repo.name;
  if (host === repo.host && same(segments[0], segments[1]) && VIEWS.has(segments[2] ?? '')) rest = segments.slice(3);
  else if (repo.host === 'github.com' && host === 'raw.githubusercontent.com' && same(segments[0], segments[1])) rest = segments.slice(2);
  else return null;
  if (!rest.length || !rest[0]) return null;
  const directory = url.pathname.endsWith('/');
  const fragment = url.hash.replace(/^#/, '');
  const splits: RefTarget[] = [];
  if (rest.length === 1) splits.push({ ref: safeDecode(rest[0]), path: '', directory: true, fragment }); // `tree/<ref>`: the root
  for (let k = 1; k < rest.length; k++) {
    splits.push({ ref: safeDecode(rest.slice(0, k).join('/')), path: safeDecode(rest.slice(k).filter(Boolean).join('/')), directory, fragment });
  }
  return splits;
}
