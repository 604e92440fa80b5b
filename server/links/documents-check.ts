import type { DocumentInput } from './document-input.js';
import { readDocuments, recordUnreadable, type ExtractedDocument } from './extract-document.js';
import type { MarkdownLink } from './extract-markdown.js';
import { LinkLedger, normalise, type LedgerEntry } from './link-ledger.js';
import { settleAndReport, type DeadLinkReport, type FragmentVerdicts, type Gate } from './report.js';
import {
  isRelativeLink,
  isRepositoryHome,
  repositoryFileLink,
  repositoryRef,
  resolveInRepository,
  resolveInSite,
  siteOf,
  type RepositoryPage,
  type RepositoryRef,
  type RepositoryTarget,
} from './repository-links.js';
import { RepositorySnapshot } from './repository-snapshot.js';
import { newChecker, type FragmentPolicy, type LinkDeps } from './site-check.js';
import { withSuggestions } from './fix-suggestions.js';
import { alwaysValidFragment } from './fragment-match.js';
import type { CheckResult, LinkKind, LinkScope, LinkSource } from './types.js';
import type { UrlPattern } from './url-pattern.js';

/** The repository's files at another ref (a tag or branch the caller's checkout has). */
export interface RefFiles {
  paths: string[];
  /** Anchors of the Markdown and HTML files that links at this ref point into with a fragment. */
  anchors?: Record<string, string[]>;
}

export interface DocumentsCheckOptions {
  documents: DocumentInput[];
  /** Every file of the repository (the documents are added to it). */
  paths: string[];
  /** Anchors of the set's other documents (sent in other calls), so fragments into them are judged. */
  anchors?: Record<string, string[]>;
  /** Check only links on these 1-based inclusive line ranges, per document; documents not named get none checked. */
  onlyLines?: Record<string, Array<[number, number]>>;
  /** `https://host/owner/repo`: its `blob/`/`tree/` links are checked against the files at their ref, not fetched. */
  repositoryUrl?: string;
  /** Refs whose links are checked against `paths` and the documents (the checkout is them); `HEAD` always is. */
  currentRefs?: string[];
  /** Other refs' files: links at them are checked against these; links at any other ref go over the network. */
  refs?: Record<string, RefFiles>;
  /** A built site's folder: root-relative links of HTML documents under it start there. */
  siteRoot?: string;
  /** No network at all: links that would be fetched are listed as not checked. */
  offline?: boolean;
  /** Reference definitions that render nothing: `warn` lists them as `unused_definition` warnings. @default ignore */
  unusedDefinitions?: 'ignore' | 'warn';
  exclude?: UrlPattern[];
  accept?: ReadonlySet<number>;
  checkOnly?: LinkScope;
  fragments: FragmentPolicy;
  gate: Gate;
  /** List every checked link in the report's `checked_urls`. */
  listChecked?: boolean;
  /** Add `suggestion`s to the report's items (`fix-suggestions.ts`). */
  suggestFixes?: boolean;
  maxDurationMs: number;
  signal?: AbortSignal;
}

/**
 * Documents mode: a repository's Markdown and HTML files sent by the caller. Relative and
 * root-relative links are checked against the repository's paths (no network), `#fragments`
 * into a file of the set against its GitHub heading slugs and HTML anchors (the other calls'
 * documents by the anchors the caller sent), links to the repository's own `blob/`/`tree/`
 * URLs against the files at their ref when the caller has it, everything else over the network
 * like a site check (or, offline, listed as not checked). Every link keeps the file, line and
 * column of each occurrence.
 */
export async function checkDocuments(opts: DocumentsCheckOptions, deps: LinkDeps): Promise<DeadLinkReport> {
  const startedAt = Date.now();
  const deadline = startedAt + opts.maxDurationMs;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.maxDurationMs);
  const onAbort = () => abort.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const checker = newChecker(deps, abort.signal, deadline);
    const ledger = new LinkLedger(checker, { startHost: '', checkOnly: opts.checkOnly, exclude: opts.exclude, accept: opts.accept });
    // The network is the slow part: a document's links go out as soon as it is read, while the
    // others still are; the ledger then takes their answers in the documents' order.
    const extracted = await readDocuments(opts.documents, deps, (doc) => {
      for (const url of networkLinks(doc, opts, ledger)) checker.ahead(url, 'check');
    });
    const run = new DocumentsRun(opts, extracted, ledger);
    for (const doc of extracted) run.readDocument(doc);
    const skippedDocuments = extracted.filter((d) => d.binary).length;
    const report = await settleAndReport(run.ledger, () => abort.signal.aborted, {
      target: opts.repositoryUrl ?? 'documents',
      mode: 'documents',
      pagesCrawled: opts.documents.length - skippedDocuments,
      skippedDocuments,
      startedAt,
      fragments: opts.fragments === 'ignore' ? new Map() : run.judgeFragments(),
      fragmentsAreErrors: opts.fragments === 'error',
      gate: opts.gate,
      listChecked: opts.listChecked,
      suggestFixes: opts.suggestFixes,
      ...(run.repo ? { repository: `${run.repo.owner}/${run.repo.name}` } : {}),
    });
    return opts.suggestFixes ? await withSuggestions(report, deps) : report;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The links of `doc` that its reading will check over the network (`DocumentsRun.absolute`):
 * absolute http(s) URLs within `only_lines`, `check_only` and `exclude`, not this repository's
 * own file URLs (checked against the files); none offline. Normalised, as the ledger keys them.
 */
function networkLinks(doc: ExtractedDocument, opts: DocumentsCheckOptions, ledger: LinkLedger): string[] {
  if (opts.offline || opts.checkOnly === 'internal') return [];
  const repo = opts.repositoryUrl ? repositoryRef(opts.repositoryUrl) : null;
  const inScope = onRequestedLines(opts, doc.path);
  const urls: string[] = [];
  for (const link of doc.links) {
    const target = inScope(link) ? resolveLink(link.url, doc, opts.siteRoot) : undefined;
    if (!target || !('url' in target) || ledger.excludes(link.url)) continue;
    const n = normalise(target.url);
    if (!n || (repo && repositoryFileLink(new URL(n.norm), repo))) continue;
    urls.push(n.norm);
  }
  return urls;
}

/** Whether a link of the document at `path` is on a line `only_lines` asks for (any line when it is not given). */
function onRequestedLines(opts: DocumentsCheckOptions, path: string): (link: { line: number; endLine: number }) => boolean {
  const ranges = opts.onlyLines ? (opts.onlyLines[path] ?? []) : null;
  return (link) => !ranges || ranges.some(([from, to]) => link.line <= to && link.endLine >= from);
}

/**
 * Where a link of `doc` points: a file of the repository, a page of the repository's site
 * (above its root), or an absolute URL. Markdown resolves as GitHub shows a file (root-relative
 * links from the repository root); HTML as a browser does on the site it belongs to (`siteRoot`
 * or the repository root), `<base href>` included. A relative value no URL parser takes is kept
 * as written (an `invalid_url`).
 */
function resolveLink(value: string, doc: ExtractedDocument, siteRoot: string | undefined): RepositoryTarget | RepositoryPage | { url: string } {
  if (!isRelativeLink(value)) return { url: value.startsWith('//') ? `https:${value}` : value };
  if (doc.kind !== 'html') return resolveInRepository(value, doc.path);
  return resolveInSite(value, doc.path, siteOf(doc.path, siteRoot), doc.baseHref) ?? { url: value };
}

/** One call's documents, read into the ledger: where each link points and what it is checked against. */
class DocumentsRun {
  readonly repo: RepositoryRef | null;
  private readonly current: RepositorySnapshot;
  private readonly currentRefs: Set<string>;
  private readonly atRefs = new Map<string, RepositorySnapshot>();
  /** Repository entries → the snapshot and path their fragments are judged in. */
  private readonly targets = new Map<LedgerEntry, { snapshot: RepositorySnapshot; path: string }>();

  constructor(
    private readonly opts: DocumentsCheckOptions,
    extracted: ExtractedDocument[],
    readonly ledger: LinkLedger,
  ) {
    this.repo = opts.repositoryUrl ? repositoryRef(opts.repositoryUrl) : null;
    // Anchors of this call's documents, read here, win over any the caller sent for them; a text, binary or unreadable file has none to judge by.
    const anchors = new Map<string, Iterable<string>>(Object.entries(opts.anchors ?? {}));
    for (const d of extracted) {
      if (d.kind !== 'text' && !d.binary && !d.error) anchors.set(d.path, d.anchors);
      else anchors.delete(d.path);
    }
    this.current = new RepositorySnapshot([...opts.paths, ...opts.documents.map((d) => d.path)], anchors);
    this.currentRefs = new Set(['HEAD', ...(opts.currentRefs ?? [])]);
    for (const [ref, files] of Object.entries(opts.refs ?? {})) {
      if (!this.currentRefs.has(ref)) this.atRefs.set(ref, new RepositorySnapshot(files.paths, new Map(Object.entries(files.anchors ?? {}))));
    }
  }

  readDocument(doc: ExtractedDocument): void {
    if (doc.error) recordUnreadable(this.ledger, doc.path, doc.error);
    const inScope = onRequestedLines(this.opts, doc.path);
    for (const link of doc.links) {
      if (!inScope(link)) continue;
      const source: LinkSource = { page: doc.path, file: doc.path, line: link.line, column: link.column };
      const target = resolveLink(link.url, doc, this.opts.siteRoot);
      if ('path' in target) this.inRepository(target, this.current, link, source);
      else if ('aboveRoot' in target) this.repositoryPage(target, link, source);
      else this.absolute(target.url, link, source);
    }
    if (this.opts.unusedDefinitions === 'warn') {
      for (const def of doc.unusedDefinitions ?? []) {
        if (!inScope(def)) continue;
        const source: LinkSource = { page: doc.path, file: doc.path, line: def.line, column: def.column };
        const why = def.duplicate ? `an earlier definition of [${def.label}] is the one used` : `no reference uses [${def.label}]`;
        this.note({ key: `unused-definition:${doc.path}:${def.line}:${def.column}`, url: def.url, scope: 'internal' }, def, source, 'unused_definition', `a reference definition that renders nothing: ${why}`);
      }
    }
  }

  /** Per repository entry, the verdict on each fragment its links carry. */
  judgeFragments(): FragmentVerdicts {
    const verdicts: FragmentVerdicts = new Map();
    for (const [entry, { snapshot, path }] of this.targets) {
      if (entry.result?.kind !== 'ok') continue; // a missing file's fragments have nothing to be judged against
      const judged = [...entry.fragments.keys()].filter((f) => !alwaysValidFragment(f));
      if (judged.length) verdicts.set(entry.url, new Map(judged.map((f) => [f, snapshot.judge(path, f)])));
    }
    return verdicts;
  }

  /** A file or directory of the repository (at the checkout, or at a ref the caller sent), checked without network. */
  private inRepository(target: RepositoryTarget, snapshot: RepositorySnapshot, link: MarkdownLink, source: LinkSource, url?: string): void {
    const shown = url ?? (target.path + (target.directory && target.path ? '/' : '') || '/');
    const entry = this.ledger.addAs({ key: url ?? `repo:${shown}`, url: shown, scope: 'internal', fragment: target.fragment }, link.resource, source);
    if (!entry) return;
    this.targets.set(entry, { snapshot, path: target.path });
    if (entry.result) return;
    this.ledger.claim(entry.url);
    const error = `no ${target.directory ? 'directory' : 'file'} ${target.path || '/'} in the repository`;
    this.ledger.record(entry, snapshot.has(target) ? ok(entry.url) : { ...ok(entry.url), kind: 'missing_file', error });
  }

  /** `..` above the root: the repository's home exists; its other pages (issues, wiki) are links on its host. */
  private repositoryPage(page: RepositoryPage, link: MarkdownLink, source: LinkSource): void {
    const home = this.opts.repositoryUrl?.replace(/\/+$/, '');
    if (isRepositoryHome(page)) {
      const url = home ?? 'the repository home';
      const entry = this.ledger.addAs({ key: 'repository-home', url, scope: 'internal', fragment: '' }, link.resource, source);
      if (entry && !entry.result) this.ledger.record(entry, ok(url));
      return;
    }
    if (home) return this.absolute(new URL(page.aboveRoot + (page.fragment ? `#${page.fragment}` : ''), `${home}/`).href, link, source);
    const error = `climbs above the repository root to its page ${page.aboveRoot}: give repository_url to check it`;
    this.note({ key: `outside:${page.aboveRoot}`, url: `../${page.aboveRoot}`, scope: 'internal' }, link, source, 'outside_repository', error);
  }

  /**
   * An absolute URL: into the repository's own files at a ref (checked against that ref's files
   * when they are known, the checkout's for the current refs), else over the network.
   */
  private absolute(value: string, link: MarkdownLink, source: LinkSource): void {
    const n = normalise(value);
    const splits = n && this.repo ? repositoryFileLink(new URL(value), this.repo) : null;
    if (n && splits) {
      // The URL as written is what `exclude` matches; a ref the caller has is checked without network.
      if (this.ledger.excludes(value)) return void this.ledger.skip(n.norm);
      const known = splits.flatMap((t) => {
        const snapshot = this.currentRefs.has(t.ref) ? this.current : this.atRefs.get(t.ref);
        return snapshot ? [{ target: t, snapshot }] : [];
      });
      const found = known.find((k) => k.snapshot.has(k.target)) ?? known[0];
      if (found) return this.inRepository(found.target, found.snapshot, link, source, n.norm);
    }
    if (this.opts.offline && n) {
      if (this.ledger.excludes(value)) return void this.ledger.skip(n.norm);
      const scope: LinkScope = splits ? 'internal' : 'external';
      return this.note({ key: n.norm, url: n.norm, scope }, link, source, 'offline', 'not checked: offline (no network)');
    }
    const entry = this.ledger.add({ url: value, resource: link.resource, navigational: link.navigational }, source);
    if (entry && !entry.result) this.ledger.schedule(entry);
  }

  /** Records a finding that is not a checked link (not checked, or a definition that renders nothing). */
  private note(id: { key: string; url: string; scope: LinkScope }, link: Pick<MarkdownLink, 'resource'>, source: LinkSource, kind: LinkKind, error: string): void {
    const entry = this.ledger.addAs({ ...id, fragment: '' }, link.resource, source);
    if (!entry || entry.result) return;
    this.ledger.claim(entry.url);
    this.ledger.record(entry, { ...ok(entry.url), kind, error });
  }
}

const ok = (url: string): CheckResult => ({ url, status: null, kind: 'ok', redirect_chain: [], final_url: url });
