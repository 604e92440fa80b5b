import { extractDocument } from '../../../../server/links/extract-document.js';
import { documentKind } from '../../../../server/links/extract-document.js';
import { isRelativeLink, repositoryFileLink, repositoryRef } from '../../../../server/links/repository-links.js';
import type { Document } from './workspace-files.js';

/**
 * What each call needs to know of the rest of the set, read once with the service's own
 * extractor (so the anchors are exactly those the service would read): the anchors of every
 * Markdown and HTML document (a call judges a `#fragment` into a document sent in another call
 * by them), and which refs of this repository each document links to (`…/blob/v1.2/…`).
 */
export interface DocumentIndex {
  /** Per document path: its heading slugs and HTML ids and names. */
  anchors: Map<string, string[]>;
  /** Per document path: the refs its links to this repository's files name (every split of a ref with slashes). */
  refsLinked: Map<string, Set<string>>;
  /** Per ref: the paths under it that links point into with a `#fragment` (their anchors are wanted). */
  fragmentTargets: Map<string, Set<string>>;
}

/**
 * Reads only what is needed, since parsing is the costly part (micromark reads about 1 MB of
 * Markdown a second): anchors only when the set goes in several calls, refs only from
 * documents that name this repository's address.
 */
export function indexDocuments(documents: Document[], repositoryUrl: string, want: { anchors: boolean }): DocumentIndex {
  const repo = repositoryRef(repositoryUrl);
  const index: DocumentIndex = { anchors: new Map(), refsLinked: new Map(), fragmentTargets: new Map() };
  const names = repo ? [`/${repo.owner}/${repo.name}/`] : [];
  const namesRepository = (doc: Document) => {
    const text = (doc.encoding === 'base64' ? Buffer.from(doc.content, 'base64').toString('latin1') : doc.content).toLowerCase();
    return names.some((n) => text.includes(n));
  };
  for (const doc of documents) {
    const refsWanted = namesRepository(doc);
    if (!want.anchors && !refsWanted) continue;
    const read = extractDocument(doc);
    if (read.kind !== 'text' && !read.binary && !read.error) index.anchors.set(doc.path, read.anchors);
    if (!repo || !refsWanted) continue;
    const refs = new Set<string>();
    for (const link of read.links) {
      if (isRelativeLink(link.url) || !URL.canParse(link.url)) continue;
      for (const t of repositoryFileLink(new URL(link.url), repo) ?? []) {
        refs.add(t.ref);
        if (t.fragment && documentKind(t.path) !== 'text') {
          const targets = index.fragmentTargets.get(t.ref) ?? new Set<string>();
          index.fragmentTargets.set(t.ref, targets.add(t.path));
        }
      }
    }
    if (refs.size) index.refsLinked.set(doc.path, refs);
  }
  return index;
}
