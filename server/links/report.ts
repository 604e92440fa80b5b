import type { LedgerEntry, LinkLedger } from './link-ledger.js';
import { reportCounts, withGate, type ReportLists } from './report-counts.js';
import { isBroken, isCheckedLink, notCheckedKinds, type CheckResult, type LinkKind, type LinkResource, type LinkScope, type LinkSource, type RedirectHop } from './types.js';

export interface LinkLocation {
  file: string;
  line: number;
  column?: number;
}

/** One reported link (broken, redirected, bot-blocked or with a warning). */
export interface LinkItem {
  url: string;
  status: number | null;
  kind: LinkKind;
  type: LinkScope;
  resource: LinkResource;
  is_image: boolean;
  found_on: string[];
  redirect_chain: RedirectHop[];
  final_url: string;
  error?: string;
  /** GitHub and documents modes: the file, line and column of the first occurrence. */
  file?: string;
  line?: number;
  column?: number;
  /** GitHub mode: every line of `file` the link is on. */
  lines?: number[];
  /** GitHub and documents modes: every occurrence, in document order. */
  locations?: LinkLocation[];
  browser_verified?: boolean;
  /** With `suggest_fixes`: a replacement URL whose target is known (keeps the link's `#fragment`). */
  suggestion?: LinkSuggestion;
}

/** A fix a reviewer can accept: only ever a different URL for the same link. */
export interface LinkSuggestion {
  url: string;
  /** `permanent_redirect`: every hop 301/308 and the end works; `https`: the http link's https twin works; `archived`: a Wayback snapshot of a broken link. */
  reason: 'permanent_redirect' | 'https' | 'archived';
  /** `archived`: ISO 8601 time of the snapshot. */
  archived_at?: string;
}

export interface DeadLinkReport {
  target: string;
  mode: 'full' | 'quick' | 'github' | 'documents';
  pages_crawled: number;
  total_links_checked: number;
  broken_count: number;
  broken_links: LinkItem[];
  redirects: LinkItem[];
  bot_blocked: LinkItem[];
  warnings: LinkItem[];
  /** Links found but not checked in this run (offline, a fragment that cannot be judged). */
  not_checked: LinkItem[];
  /** With `suggest_fixes`: working links listed nowhere else that have a better URL (an `http://` link whose `https://` twin works). */
  upgrades?: LinkItem[];
  summary: {
    health_score: number;
    /** Places (file:line:column, or pages) of the broken links. */
    broken_places: number;
    broken_images: number;
    redirects_found: number;
    bot_blocked: number;
    warnings: number;
    internal_links: number;
    external_links: number;
    skipped_links: number;
    cached_results: number;
    rendered_pages: number;
    /** Links listed in `not_checked`. */
    not_checked: number;
    duration_ms: number;
    /** Documents mode: documents not read because their content is binary. */
    skipped_documents?: number;
    /** With `suggest_fixes`: items that carry a `suggestion`. */
    suggestions?: number;
  };
  /** With `list_checked` (documents mode): every link counted in `total_links_checked`, so a client that split its set can count each once. */
  checked_urls?: string[];
  /** With `list_checked`: those of `checked_urls` that are internal. */
  checked_internal_urls?: string[];
  /** With `list_checked`: the links counted in `summary.skipped_links`. */
  skipped_urls?: string[];
  timed_out?: true;
  pass?: boolean;
  gate?: { threshold?: number; max_broken?: number };
  repository?: string;
  file?: string;
  checked_at: string;
}

export interface Gate {
  threshold?: number;
  maxBroken?: number;
}

/** How a `#fragment` of a link fared: found among its target's anchors, missing, or not judged (the anchors are unknown). */
export type FragmentVerdict = 'found' | 'missing' | 'not_judged';

/** Per entry URL, per fragment, its verdict; a judged fragment (found or missing) is a link checked of its own. */
export type FragmentVerdicts = Map<string, Map<string, FragmentVerdict>>;

export interface ReportInput {
  target: string;
  mode: DeadLinkReport['mode'];
  entries: Iterable<LedgerEntry>;
  pagesCrawled: number;
  renderedPages: number;
  skipped: number;
  /** With `listChecked`: the skipped links. */
  skippedUrls?: string[];
  /** Documents mode: documents not read because their content is binary. */
  skippedDocuments?: number;
  timedOut: boolean;
  startedAt: number;
  /** Per entry URL: the verdicts of its fragments. */
  fragments: FragmentVerdicts;
  /** Treat missing fragments as broken. */
  fragmentsAreErrors: boolean;
  gate: Gate;
  repository?: string;
  file?: string;
  /** List every checked link in `checked_urls`. */
  listChecked?: boolean;
  /** Collect working `http://` links in `upgrades`, candidates for an https suggestion (`fix-suggestions.ts`). */
  suggestFixes?: boolean;
}

/**
 * The report of a run whose every link sits in `ledger` (GitHub and documents modes): waits
 * for the checks in flight, then builds it; unanswered entries mean the run timed out.
 */
export async function settleAndReport(
  ledger: LinkLedger,
  aborted: () => boolean,
  input: Omit<ReportInput, 'entries' | 'skipped' | 'timedOut' | 'renderedPages'>,
): Promise<DeadLinkReport> {
  await ledger.settle();
  const entries = [...ledger.entries.values()];
  return buildReport({ ...input, entries, renderedPages: 0, skipped: ledger.skipped, skippedUrls: ledger.skippedUrls(), timedOut: aborted() || entries.some((e) => !e.result) });
}

const byUrl = (a: LinkItem, b: LinkItem) => a.url.localeCompare(b.url);

export function buildReport(input: ReportInput): DeadLinkReport {
  const broken: LinkItem[] = [];
  const redirects: LinkItem[] = [];
  const botBlocked: LinkItem[] = [];
  const warnings: LinkItem[] = [];
  const notChecked: LinkItem[] = [];
  const upgrades: LinkItem[] = [];
  let internal = 0;
  let external = 0;
  let cached = 0;
  const checkedUrls: string[] = [];
  const internalUrls: string[] = [];
  const countChecked = (url: string, scope: LinkScope) => {
    if (input.listChecked) (scope === 'internal' ? internalUrls : checkedUrls).push(url);
    if (scope === 'internal') internal++;
    else external++;
  };

  for (const e of input.entries) {
    const r = e.result;
    if (!r) continue;
    // The start page is not a link found anywhere: listed when it redirects or fails, not counted as checked.
    if (e.sources.length === 0 && !isBroken(r.kind)) {
      if (r.redirect_chain.length) redirects.push(toItem(input.mode, e, r));
      continue;
    }
    const item = toItem(input.mode, e, r);
    if (notCheckedKinds.has(r.kind)) {
      notChecked.push(item);
      continue;
    }
    if (isCheckedLink(r.kind)) countChecked(item.url, e.scope);
    if (r.cached) cached++;
    if (isBroken(r.kind)) broken.push(item);
    else if (r.kind === 'bot_blocked') botBlocked.push(item);
    else if (r.kind !== 'ok' && r.kind !== 'redirect') warnings.push(item);
    if (r.redirect_chain.length && !isBroken(r.kind)) redirects.push(item);
    else if (input.suggestFixes && r.kind === 'ok' && /^http:\/\//i.test(e.url)) upgrades.push(item);
    for (const [fragment, verdict] of input.fragments.get(e.url) ?? []) {
      const url = `${e.url}#${fragment}`;
      if (verdict === 'found') {
        countChecked(url, e.scope);
        continue;
      }
      const fragItem: LinkItem = { ...toItem(input.mode, e, r, e.fragments.get(fragment)), url, kind: verdict === 'missing' ? 'missing_fragment' : 'fragment_not_judged' };
      const inFiles = input.mode === 'documents' || input.mode === 'github';
      if (verdict === 'not_judged') {
        const why = input.mode === 'github' ? 'only the README\'s headings are read' : 'it is not among the documents sent, nor their anchors';
        fragItem.error = `the anchors of ${e.url} are unknown (${why}), so "#${fragment}" was not judged`;
        notChecked.push(fragItem);
        continue;
      }
      countChecked(url, e.scope);
      fragItem.error = inFiles ? `no heading or HTML anchor makes "#${fragment}" in the document` : `no element with id or name "${fragment}" on the page`;
      (input.fragmentsAreErrors ? broken : warnings).push(fragItem);
    }
  }

  const lists: ReportLists = {
    broken_links: broken.sort(byUrl),
    redirects: redirects.sort(byUrl),
    bot_blocked: botBlocked.sort(byUrl),
    warnings: warnings.sort(byUrl),
    not_checked: notChecked.sort(byUrl),
  };
  const counts = reportCounts(lists, {
    checked: internal + external,
    internal,
    external,
    skipped: input.skipped,
    cached,
    renderedPages: input.renderedPages,
    durationMs: Date.now() - input.startedAt,
    skippedDocuments: input.skippedDocuments,
  });
  let report: DeadLinkReport = {
    target: input.target,
    mode: input.mode,
    pages_crawled: input.pagesCrawled,
    total_links_checked: counts.total_links_checked,
    broken_count: counts.broken_count,
    ...lists,
    summary: counts.summary,
    checked_at: new Date().toISOString(),
  };
  if (input.listChecked) {
    report.checked_urls = [...checkedUrls, ...internalUrls].sort();
    report.checked_internal_urls = internalUrls.sort();
    report.skipped_urls = input.skippedUrls ?? [];
  }
  if (input.suggestFixes) report.upgrades = upgrades.sort(byUrl);
  if (input.timedOut) report.timed_out = true;
  report = withGate(report, input.gate);
  if (input.repository) report.repository = input.repository;
  if (input.file) report.file = input.file;
  return report;
}

function toItem(mode: DeadLinkReport['mode'], e: LedgerEntry, r: CheckResult, sources: LinkSource[] = e.sources): LinkItem {
  const resource = pickResource(e.resources);
  const item: LinkItem = {
    url: e.url,
    status: r.status,
    kind: r.kind,
    type: e.scope,
    resource,
    is_image: e.resources.has('image'),
    found_on: [...new Set(sources.map((s) => s.page))],
    redirect_chain: r.redirect_chain,
    final_url: r.final_url,
  };
  if (r.error) item.error = r.error;
  if (r.browser_verified) item.browser_verified = true;
  const locations = sources.flatMap((s): LinkLocation[] =>
    s.file !== undefined && s.line !== undefined ? [{ file: s.file, line: s.line, ...(s.column !== undefined ? { column: s.column } : {}) }] : [],
  );
  if (locations.length) {
    locations.sort((a, b) => (a.file === b.file ? a.line - b.line || (a.column ?? 0) - (b.column ?? 0) : a.file < b.file ? -1 : 1));
    const [first] = locations;
    item.file = first.file;
    item.line = first.line;
    if (first.column !== undefined) item.column = first.column;
    if (mode === 'github') item.lines = [...new Set(locations.filter((l) => l.file === first.file).map((l) => l.line))];
    item.locations = locations;
  }
  return item;
}

const resourceOrder: LinkResource[] = ['image', 'stylesheet', 'script', 'media', 'frame', 'page', 'other'];
function pickResource(set: Set<LinkResource>): LinkResource {
  return resourceOrder.find((r) => set.has(r)) ?? 'other';
}
