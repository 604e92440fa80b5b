import * as glob from '@actions/glob';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DocumentInput } from '../../../../server/links/document-input.js';
import { isBinaryContent } from '../../../../server/links/text-encoding.js';

/** A file of the checkout, sent to the API for its links to be checked (the API's document). */
export type Document = DocumentInput;

/** Folders that hold other projects' files; skipped unless a pattern names them. */
const foreign = ['.git', 'node_modules'];

/** @actions/glob's escaping, so a workspace path with `*`, `?` or `[` stays literal. */
const globEscape = (s: string) => s.replace(/\\/g, '\\\\').replace(/(\[)(?=[^/]+\])/g, '[[]').replace(/\?/g, '[?]').replace(/\*/g, '[*]');

/**
 * The workspace files that the `files` patterns match (newline-separated globs relative to
 * the workspace, `!` to exclude, `#` comments), sorted, as relative paths. Symbolic links
 * are not followed or read: a pull request could otherwise point one at a file outside the
 * checkout and have its content sent to the API.
 */
export async function matchWorkspaceFiles(workspace: string, patterns: string[]): Promise<{ paths: string[]; skipped: string[] }> {
  const root = globEscape(path.resolve(workspace));
  const lines = patterns.map((p) => {
    if (p.startsWith('#')) return p;
    const negate = p.startsWith('!');
    const body = (negate ? p.slice(1) : p).replace(/^\.\//, '');
    if (path.isAbsolute(body)) throw new Error(`input files: ${JSON.stringify(p)} must be relative to the workspace`);
    return `${negate ? '!' : ''}${root}/${body}`;
  });
  const named = new Set(foreign.filter((f) => patterns.some((p) => p.split('/').includes(f))));
  const globber = await glob.create(lines.join('\n'), { followSymbolicLinks: false, matchDirectories: false, implicitDescendants: true });
  const paths: string[] = [];
  const skipped: string[] = [];
  for (const abs of await globber.glob()) {
    const rel = path.relative(workspace, abs).split(path.sep).join('/');
    if (rel.startsWith('../') || rel.split('/').some((seg) => foreign.includes(seg) && !named.has(seg))) continue;
    if ((await lstat(abs)).isSymbolicLink()) skipped.push(`${rel} (a symbolic link)`);
    else paths.push(rel);
  }
  return { paths: paths.sort(), skipped };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the matched files: UTF-8 ones as text, other text (a Latin-1 Markdown file, a legacy
 * HTML page, UTF-16) as base64 bytes for the API to decode as GitHub does. Binary files (by
 * GitHub's test: images, fonts, archives that a broad glob like `docs/**` matches) are not sent
 * at all: they hold no links and would only spend the key's per-call byte limit; they come back
 * in `binary` so the summary can say so.
 */
export async function readDocuments(workspace: string, paths: string[]): Promise<{ documents: Document[]; binary: string[] }> {
  const documents: Document[] = [];
  const binary: string[] = [];
  for (const p of paths) {
    const bytes = await readFile(path.join(workspace, p));
    if (isBinaryContent(bytes)) {
      binary.push(p);
      continue;
    }
    try {
      documents.push({ path: p, content: utf8.decode(bytes) });
    } catch {
      documents.push({ path: p, content: bytes.toString('base64'), encoding: 'base64' });
    }
  }
  return { documents, binary };
}
