import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Output of a git command in `cwd`, or undefined when git fails (not a checkout, object missing). */
export async function git(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
    return stdout;
  } catch {
    return undefined; // the caller falls back (a walk, the pull request files API)
  }
}

/** A blob's bytes (`<commit>:<path>`), or undefined when git has no such object. */
export async function gitBlob(cwd: string, object: string): Promise<Buffer | undefined> {
  try {
    const { stdout } = await run('git', ['cat-file', 'blob', object], { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'buffer' });
    return stdout;
  } catch {
    return undefined; // not in this checkout: its anchors stay unknown
  }
}

/**
 * Every file of the repository, relative to the workspace, that relative links may point
 * to: in a git checkout the tracked and untracked-but-not-ignored files (`git ls-files`),
 * plus every file beside a document git ignores (a site built into an ignored folder links
 * to its own CSS and pages); elsewhere a walk that skips `.git` and `node_modules`.
 */
export async function repositoryPaths(workspace: string, documents: string[]): Promise<{ paths: string[]; from: 'git' | 'walk' }> {
  const listed = await git(workspace, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  if (listed === undefined) return { paths: (await walk(workspace)).sort(), from: 'walk' };
  const paths = new Set(listed.split('\0').filter(Boolean));
  const ignoredRoots = new Set(documents.filter((d) => !paths.has(d)).map((d) => d.split('/')[0]));
  for (const top of ignoredRoots) for (const p of await walk(workspace, top)) paths.add(p);
  return { paths: [...paths].sort(), from: 'git' };
}

async function walk(root: string, dir = ''): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(path.join(root, dir), { withFileTypes: true });
  } catch {
    return [dir]; // a file (a top-level document), or unreadable
  }
  for (const e of entries) {
    if (e.name === '.git' || e.name === 'node_modules') continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(root, rel)));
    else if (e.isFile() || e.isSymbolicLink()) out.push(rel);
  }
  return out;
}

/** The README GitHub shows for the repository, in its order: `.github/`, the root, `docs/`. */
export function findReadme(paths: string[]): string | undefined {
  for (const dir of ['.github/', '', 'docs/']) {
    const found = paths.find((p) => p.startsWith(dir) && /^readme\.(md|markdown|mdown|mkdn)$/i.test(p.slice(dir.length)));
    if (found) return found;
  }
  return undefined;
}
