import type { Dispatcher } from 'undici';
import { targetErrorOf } from '../errors/index.js';
import { BlockedTargetError } from '../net/target-policy.js';
import { netErrorKind, innermostMessage, type SafeHttp } from '../net/safe-http.js';
import type { ExtractDocuments } from './extract-document.js';
import { extractHtml } from './extract-html.js';
import { alwaysValidFragment, anchorMatcher } from './fragment-match.js';
import { HostGate } from './host-gate.js';
import { LinkChecker } from './link-checker.js';
import { normalise, type LedgerEntry } from './link-ledger.js';
import { buildReport, type DeadLinkReport, type FragmentVerdicts, type Gate } from './report.js';
import type { LinkResultCache } from './result-cache.js';
import type { ArchiveLookup } from './wayback.js';
import { withSuggestions } from './fix-suggestions.js';
import { crawlSite, type CrawlProgress, type PageRenderer } from './site-crawler.js';
import { isBroken, type CheckResult, type LinkScope } from './types.js';
import type { UrlPattern } from './url-pattern.js';

export type FragmentPolicy = 'warn' | 'error' | 'ignore';

/**
 * A site check's options when the caller gives none: GET /api/deadlinks's defaults, and a
 * comparison's link check, so one site gives the same findings through either.
 */
export const siteCheckDefaults = {
  mode: 'full',
  maxPages: 20,
  maxDurationMs: 60_000,
  render: true,
  fragments: 'warn',
} as const satisfies Partial<SiteCheckOptions>;

export interface SiteCheckOptions {
  url: string;
  mode: 'full' | 'quick';
  /** Pages crawled in full mode. Infinity for no cap (benches). @default 20 */
  maxPages: number;
  /** Time budget; partial results with `timed_out` after it. */
  maxDurationMs: number;
  checkOnly?: LinkScope;
  /** URL patterns not checked (counted as skipped). */
  exclude?: UrlPattern[];
  /** Extra statuses counted as working. */
  accept?: ReadonlySet<number>;
  /** Render crawled pages in the browser (full mode only). */
  render: boolean;
  fragments: FragmentPolicy;
  gate: Gate;
  onProgress?: (p: CrawlProgress) => void;
  /** Add `suggestion`s to the report's items (`fix-suggestions.ts`). */
  suggestFixes?: boolean;
  /** Stops the run early (client gone); the report is then partial. */
  signal?: AbortSignal;
}

/** What checking needs from the outside world; everything outbound goes through `dispatcher`. */
export interface LinkDeps {
  dispatcher: Dispatcher;
  assertUrl(url: string): URL;
  /** assertUrl plus DNS; throws BlockedTargetError or the DNS error. */
  assertResolvable(url: string): Promise<URL>;
  cache?: LinkResultCache;
  /** Archived copies for broken links' suggestions; absent when the operator turned the archive off. */
  archive?: ArchiveLookup;
  /** Timeout of one request, in ms. */
  timeoutMs: number;
  /** @default 64 */
  concurrency?: number;
  /** Most checks in flight per host, reached while it answers fast (`host-gate.ts`). @default 64 */
  hostConcurrency?: number;
  renderer?: PageRenderer;
  /** Reads repository documents (documents and GitHub modes), off the event loop in the service. @default extractDocument, inline */
  extract?: ExtractDocuments;
}

/** The outbound part of `LinkDeps`, from the guarded HTTP client: every request and address check through it. */
export const linkNet = (http: SafeHttp): Pick<LinkDeps, 'dispatcher' | 'assertUrl' | 'assertResolvable'> => ({
  dispatcher: http.dispatcher,
  assertUrl: (u) => http.policy.assertUrl(u),
  assertResolvable: (u) => http.policy.assertResolvable(u),
});

/**
 * The start page could not be fetched at all (an HTTP error status is a finding, reported):
 * the target error of its kind (502, 504 for a timeout), naming the `url` parameter.
 */
const startPageError = (kind: string, detail: string, cause?: unknown) => targetErrorOf(kind, `url could not be reached (${kind}): ${detail}`, cause);

const MAX_BOT_VERIFICATIONS = 10;

/** Checks a site (full: crawl; quick: the one page, no browser) and returns the report; a start page out of reach throws its target error. */
export async function checkSite(opts: SiteCheckOptions, deps: LinkDeps): Promise<DeadLinkReport> {
  const startedAt = Date.now();
  try {
    await deps.assertResolvable(opts.url);
  } catch (err) {
    if (err instanceof BlockedTargetError) throw err;
    throw startPageError(netErrorKind(err), `${new URL(opts.url).hostname} could not be resolved: ${innermostMessage(err)}`, err);
  }
  const deadline = startedAt + opts.maxDurationMs;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.maxDurationMs);
  opts.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  try {
    const checker = newChecker(deps, abort.signal, deadline);
    const quick = opts.mode === 'quick';
    const renderer = !quick && opts.render ? deps.renderer : undefined;
    const crawl = await crawlSite(
      { url: opts.url, maxPages: quick ? 1 : opts.maxPages, deadline, signal: abort.signal, checkOnly: opts.checkOnly, exclude: opts.exclude, accept: opts.accept },
      { checker, renderer, onProgress: opts.onProgress },
    );
    const start = crawl.start;
    if (start && start.status === null && start.kind !== 'blocked_target' && crawl.pagesCrawled === 0) {
      throw startPageError(start.kind, `${opts.url} could not be fetched: ${start.error ?? start.kind}`);
    }
    if (start?.kind === 'blocked_target' && crawl.pagesCrawled === 0) throw new BlockedTargetError(start.error ?? 'target refused');

    const entries = [...crawl.ledger.entries.values()];
    const fragments = opts.fragments === 'ignore' ? new Map() : await judgeFragments(entries, crawl.anchors, checker, abort.signal);
    if (renderer) await secondOpinions(entries, renderer, deadline);

    const report = buildReport({
      target: opts.url,
      mode: opts.mode,
      entries,
      pagesCrawled: crawl.pagesCrawled,
      renderedPages: crawl.renderedPages,
      skipped: crawl.ledger.skipped,
      timedOut: abort.signal.aborted || entries.some((e) => !e.result && e.sources.length > 0),
      startedAt,
      fragments,
      fragmentsAreErrors: opts.fragments === 'error',
      gate: opts.gate,
      suggestFixes: opts.suggestFixes,
    });
    return opts.suggestFixes ? await withSuggestions(report, deps) : report;
  } finally {
    clearTimeout(timer);
  }
}

export function newChecker(deps: LinkDeps, signal: AbortSignal, deadline: number): LinkChecker {
  const gate = new HostGate({ global: deps.concurrency ?? 64, perHost: deps.hostConcurrency ?? 64 });
  return new LinkChecker(
    { dispatcher: deps.dispatcher, assertUrl: deps.assertUrl, gate, cache: deps.cache },
    { timeoutMs: deps.timeoutMs, signal, deadline },
  );
}

/**
 * Same-site links with `#fragment` are checked against the target page's ids and names
 * (from the rendered DOM when the page was rendered; fetched now when it was not crawled).
 */
export async function judgeFragments(entries: LedgerEntry[], known: Map<string, Set<string>>, checker: LinkChecker, signal: AbortSignal): Promise<FragmentVerdicts> {
  const verdicts: FragmentVerdicts = new Map();
  const candidates = entries.filter(
    (e) => e.scope === 'internal' && e.result && !isBroken(e.result.kind) && [...e.fragments.keys()].some((f) => !alwaysValidFragment(f)),
  );
  await Promise.all(
    candidates.map(async (e) => {
      const r = e.result as CheckResult;
      let anchors = known.get(e.url) ?? known.get(normalise(r.final_url)?.norm ?? '');
      if (!anchors) {
        if (signal.aborted) return;
        const page = await checker.fetchPage(e.url);
        if (!page?.body || page.bodyType !== 'html') return; // not HTML (a PDF's #page=2 is not ours to judge)
        anchors = extractHtml(page.body, page.result.final_url, page.encoding).anchors;
      }
      const matches = anchorMatcher(anchors, { ignoreCase: false });
      const judged = [...e.fragments.keys()].filter((f) => !alwaysValidFragment(f));
      verdicts.set(e.url, new Map(judged.map((f) => [f, matches(f) ? 'found' : 'missing'])));
    }),
  );
  return verdicts;
}

/** Bot-blocked links get a real browser's opinion; a page that loads there is fine. */
async function secondOpinions(entries: LedgerEntry[], renderer: PageRenderer, deadline: number): Promise<void> {
  const blocked = entries.filter((e) => e.result?.kind === 'bot_blocked').slice(0, MAX_BOT_VERIFICATIONS);
  for (let i = 0, n = 1; i < blocked.length; i += n) {
    n = renderer.concurrency; // the pool's free slots now, read once per batch
    await Promise.all(
      blocked.slice(i, i + n).map(async (e) => {
        const remaining = deadline - Date.now();
        if (remaining < 1000 || !e.result) return;
        const status = await renderer.verify(e.url, Math.min(remaining, 15_000)).catch(() => null);
        if (status !== null && status < 400) e.result = { ...e.result, status, kind: 'ok', browser_verified: true };
      }),
    );
  }
}
