import type { RefFiles } from '../../../../server/links/documents-check.js';
import { extractDocument } from '../../../../server/links/extract-document.js';
import { git, gitBlob } from './repository-paths.js';

/**
 * The files at each linked ref the checkout has (a tag, a branch fetched with it, a commit in
 * its history), read from git: every path, and the anchors of the files that links point into
 * with a fragment. A ref the checkout lacks is left out, and its links go over the network.
 */
export async function refFiles(workspace: string, refs: Iterable<string>, fragmentTargets: Map<string, Set<string>>): Promise<Map<string, RefFiles>> {
  const out = new Map<string, RefFiles>();
  for (const ref of refs) {
    const commit = await resolveRef(workspace, ref);
    if (!commit) continue;
    const listed = await git(workspace, ['ls-tree', '-r', '-z', '--name-only', commit]);
    if (listed === undefined) continue;
    const paths = listed.split('\0').filter(Boolean);
    const present = new Set(paths);
    const anchors: Record<string, string[]> = {};
    for (const path of fragmentTargets.get(ref) ?? []) {
      if (!present.has(path)) continue;
      const bytes = await gitBlob(workspace, `${commit}:${path}`);
      if (!bytes) continue;
      const read = extractDocument({ path, content: bytes.toString('base64'), encoding: 'base64' });
      if (!read.binary && !read.error) anchors[path] = read.anchors;
    }
    out.set(ref, { paths, anchors });
  }
  return out;
}

/** The commit a ref names in the checkout: a tag, a local or remote-tracking branch, or a commit; undefined when it has none. */
async function resolveRef(workspace: string, ref: string): Promise<string | undefined> {
  if (ref.startsWith('-')) return undefined; // never an option to git
  for (const name of [`refs/tags/${ref}`, `refs/heads/${ref}`, `refs/remotes/origin/${ref}`, ref]) {
    const sha = (await git(workspace, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`]))?.trim();
    if (sha) return sha;
  }
  return undefined;
}
