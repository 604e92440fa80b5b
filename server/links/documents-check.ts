import { anchorMatcher } from './fragment-match.js';
import type { DocumentInput } from './document-input.js';
import { readDocuments, recordUnreadable, type ExtractedDocument } from './extract-document.js';
import { LinkLedger, normalise, type LedgerEntry } from './link-ledger.js';
import { settleAndReport, type DeadLinkReport, type Gate } from './report.js';
import {
  isRelativeLink,
  repositoryFileLink,
  repositoryRef,
  RepositoryTree,
  resolveInRepository,
  resolveInSite,
  siteOf,
  type RepositoryTarget,
} from './repository-links.js';
import { newChecker, type FragmentPolicy, type LinkDeps } from './site-check.js';
import type { CheckResult, LinkScope, LinkSource } from './types.js';
import type { MarkdownLink } from './extract-markdown.js';
import type { UrlPattern } from './url-pattern.js';

export interface DocumentsCheckOptions {
  documents: DocumentInput[];
  /** Every file of the repository (the documents are added to it). */
  paths: string[];
  /** Check only links on these 1-based inclusive line ranges, per document; documents not named get none checked. */
  onlyLines?: Record<string, Array<[number, number]>>;
  /** `https://host/owner/repo`: its `blob/`/`tree/` links are checked against `paths`, not fetched. */
  repositoryUrl?: string;
  /** A built site's folder: root-relative links of HTML documents under it start there. */
  siteRoot?: string;
  exclude?: UrlPattern[];
  accept?: ReadonlySet<number>;
  checkOnly?: LinkScope;
  fragments: FragmentPolicy;
  gate: Gate;
  /** List every checked link in the report's `checked_urls`. */
  listChecked?: boolean;
  maxDurationMs: number;
  signal?: AbortSignal;
}

/**
 * Documents mode: a repository's Markdown and HTML files sent by the caller. Relative and
 * root-relative links are checked against the repository's paths (no network), `#fragments`
 * into a document of the set against its GitHub heading slugs and HTML anchors, links to the
 * repository's own `blob/`/`tree/` URLs against the paths, everything else over the network
 * like a site check. Every link keeps the file, line and column of each occurrence.
 */
export async function checkDocuments(opts: DocumentsCheckOptions, deps: LinkDeps): Promise<DeadLinkReport> {
  const startedAt = Date.now();
  const deadline = startedAt + opts.maxDurationMs;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.maxDurationMs);
  const onAbort = () => abort.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const extracted = await readDocuments(opts.documents, deps);
    const tree = new RepositoryTree([...opts.paths, ...opts.documents.map((d) => d.path)]);
    // Fragments are judged in Markdown and HTML documents that were read; a text, binary or unreadable file has no anchors to judge by.
    const anchors = new Map(extracted.filter((d) => d.kind !== 'text' && !d.binary && !d.error).map((d) => [d.path, anchorMatcher(d.anchors, { ignoreCase: d.kind === 'markdown' })]));
    const skippedDocuments = extracted.filter((d) => d.binary).length;
    const repo = opts.repositoryUrl ? repositoryRef(opts.repositoryUrl) : null;
    const checker = newChecker(deps, abort.signal, deadline);
    // No start host: every fetched link is external; repository files are the internal ones.
    const ledger = new LinkLedger(checker, { startHost: '', checkOnly: opts.checkOnly, exclude: opts.exclude, accept: opts.accept });
    const targets = new Map<LedgerEntry, string>(); // repository entries → the path their fragments are looked up in

    const checkInRepository = (id: { key: string; url: string; fragment: string }, target: RepositoryTarget | null, link: MarkdownLink, source: LinkSource) => {
      const entry = ledger.addAs({ ...id, scope: 'internal' }, link.resource, source);
      if (!entry) return;
      if (target) targets.set(entry, target.path);
      if (entry.result) return;
      ledger.claim(entry.url);
      const exists = target !== null && tree.has(target);
      const error = target ? `no ${target.directory ? 'directory' : 'file'} ${target.path || '/'} in the repository` : 'the link climbs above the repository root';
      ledger.record(entry, fileResult(entry.url, exists, error));
    };

    for (const doc of extracted) {
      if (doc.error) recordUnreadable(ledger, doc.path, doc.error);
      const ranges = opts.onlyLines ? (opts.onlyLines[doc.path] ?? []) : null;
      for (const link of doc.links) {
        if (ranges && !ranges.some(([from, to]) => link.line <= to && link.endLine >= from)) continue;
        const source: LinkSource = { page: doc.path, file: doc.path, line: link.line, column: link.column };
        const target = resolveLink(link.url, doc, opts.siteRoot);

        if (target === 'outside') {
          checkInRepository({ key: `outside:${link.url}`, url: link.url, fragment: '' }, null, link, source);
          continue;
        }
        if ('path' in target) {
          const shown = target.path + (target.directory && target.path ? '/' : '') || '/';
          checkInRepository({ key: `repo:${shown}`, url: shown, fragment: target.fragment }, target, link, source);
          continue;
        }

        const value = target.url;
        const absolute = value.startsWith('//') ? `https:${value}` : value;
        const n = normalise(absolute);
        const own = n && repo ? repositoryFileLink(new URL(absolute), repo) : null;
        if (n && own) {
          // Pinned to a commit: what it shows cannot change. The URL as written is what `exclude` matches.
          if (own.pinned || ledger.excludes(absolute)) {
            ledger.skip();
            continue;
          }
          const found = own.splits.find((t) => tree.has(t)) ?? own.splits[0];
          checkInRepository({ key: n.norm, url: n.norm, fragment: n.fragment }, found, link, source);
          continue;
        }
        const entry = ledger.add({ url: absolute, resource: link.resource, navigational: link.navigational }, source);
        if (entry && !entry.result) ledger.schedule(entry);
      }
    }

    const missing = new Map<string, string[]>();
    if (opts.fragments !== 'ignore') {
      for (const [entry, path] of targets) {
        const matches = anchors.get(path);
        if (!matches || entry.result?.kind !== 'ok') continue; // not a document of the set: its fragments cannot be judged
        const lost = [...entry.fragments.keys()].filter((f) => !matches(f));
        if (lost.length) missing.set(entry.url, lost);
      }
    }
    return await settleAndReport(ledger, () => abort.signal.aborted, {
      target: opts.repositoryUrl ?? 'documents',
      mode: 'documents',
      pagesCrawled: opts.documents.length - skippedDocuments,
      skippedDocuments,
      startedAt,
      missingFragments: missing,
      fragmentsAreErrors: opts.fragments === 'error',
      gate: opts.gate,
      listChecked: opts.listChecked,
      ...(repo ? { repository: `${repo.owner}/${repo.name}` } : {}),
    });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

function fileResult(url: string, exists: boolean, error: string): CheckResult {
  return exists
    ? { url, status: null, kind: 'ok', redirect_chain: [], final_url: url }
    : { url, status: null, kind: 'missing_file', redirect_chain: [], final_url: url, error };
}

/**
 * Where a link of `doc` points: a file of the repository (or `outside` it), or an absolute URL.
 * Markdown resolves as GitHub shows a file (root-relative links from the repository root); HTML
 * as a browser does on the site it belongs to (`siteRoot` or the repository root), `<base href>`
 * included. A relative value no URL parser takes is kept as written (an `invalid_url`).
 */
function resolveLink(value: string, doc: ExtractedDocument, siteRoot: string | undefined): RepositoryTarget | 'outside' | { url: string } {
  if (!isRelativeLink(value)) return { url: value };
  if (doc.kind !== 'html') return resolveInRepository(value, doc.path);
  return resolveInSite(value, doc.path, siteOf(doc.path, siteRoot), doc.baseHref) ?? { url: value };
}
