import { scanCss } from './extract-css.js';
import { extractHtml } from './extract-html.js';
import { PageLoader } from './page-loader.js';
import { RenderResources, type ResourceSource } from './render-resources.js';
import { resolveIn } from './resolve-url.js';
import type { LinkChecker } from './link-checker.js';
import { LinkLedger, normalise, sameSite, type LedgerEntry } from './link-ledger.js';
import type { CheckResult, FoundLink, LinkScope } from './types.js';
import type { UrlPattern } from './url-pattern.js';

/** A rendered page: what the browser saw after scripts ran. */
export interface RenderedPage {
  /** Serialised DOM; absent when the page is not HTML, failed, or navigated away. */
  html?: string;
  /** Element ids and names of the rendered DOM. */
  anchors?: Set<string>;
  /** The document's encoding (`document.characterSet`, lower case). */
  encoding?: string;
  /** The page navigated its main frame to this URL in the browser (meta refresh or script). */
  navigatedTo?: string;
}

/** A page as the crawler fetched it, handed to the browser instead of a second fetch. */
export interface FetchedPage {
  html: string;
  /** The `Content-Type` to serve it with (UTF-8: the HTML is the decoded text). */
  contentType: string;
}

/** Renders pages in a real browser (full mode); the crawler has fetched them first. */
export interface PageRenderer {
  /**
   * Starts the renders of one crawl (they may share browser tabs); close it when the crawl ends.
   * `resources`: where its renders take scripts and style sheets from, fetched once per crawl.
   */
  open(resources?: ResourceSource): RenderSession;
  /** Second opinion on a bot-blocked link: the status a browser navigation gets (null on failure). */
  verify(url: string, timeoutMs: number): Promise<number | null>;
  /** Pages to render at once now (the pool's free slots, within its cap). */
  readonly concurrency: number;
}

export interface RenderSession {
  /** `fetched`: the page's HTML from the crawl's fetch, served to the browser for `url` instead of fetching it again. */
  render(url: string, timeoutMs: number, fetched?: FetchedPage): Promise<RenderedPage>;
  close(): void;
}

export interface CrawlOptions {
  url: string;
  /** Pages fetched and parsed for links (1 = quick mode). Infinity allowed for benches. */
  maxPages: number;
  /** When the run must stop and report what it has. */
  deadline: number;
  signal: AbortSignal;
  checkOnly?: LinkScope;
  exclude?: UrlPattern[];
  accept?: ReadonlySet<number>;
}

export interface CrawlDeps {
  checker: LinkChecker;
  renderer?: PageRenderer;
  onProgress?: (p: CrawlProgress) => void;
}

export interface CrawlProgress {
  pages_crawled: number;
  pages_queued: number;
  links_found: number;
  links_checked: number;
  broken_so_far: number;
}

export interface CrawlOutcome {
  ledger: LinkLedger;
  pagesCrawled: number;
  renderedPages: number;
  /** Anchors per crawled page (normalised URL). */
  anchors: Map<string, Set<string>>;
  /** The start page's own result. */
  start: CheckResult | null;
}

/**
 * Pages fetched or rendered at once (renders are fewer: the renderer's concurrency). The host
 * gate paces the requests; this bounds the pages held in memory.
 */
const PAGES_AT_ONCE = 64;

/** Same-site style sheets read for their `url()`s and `@import`s per run (they do not count as pages). */
const MAX_STYLESHEETS = 50;

const NON_HTML = /\.(pdf|zip|gz|tgz|bz2|7z|rar|png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4a|ogg|ogv|webm|wav|avi|mov|mkv|woff2?|ttf|otf|eot|css|js|mjs|json|xml|txt|csv|exe|dmg|apk|iso|docx?|xlsx?|pptx?)$/i;

/**
 * Crawls same-site pages from `url` (breadth first, up to `maxPages`), checking every
 * link and resource found once. Pages are rendered by `renderer` when given, else
 * fetched; everything that is only checked goes through the checker (HEAD→GET).
 */
export async function crawlSite(opts: CrawlOptions, deps: CrawlDeps): Promise<CrawlOutcome> {
  const start = new URL(opts.url);
  let pagesCrawled = 0;
  let renderedPages = 0;
  const queue: Array<{ entry: LedgerEntry }> = [];
  let queuedPages = 0;
  const anchors = new Map<string, Set<string>>();
  const emit = () =>
    deps.onProgress?.({ pages_crawled: pagesCrawled, pages_queued: queuedPages, ...ledger.progress() });
  const ledger = new LinkLedger(deps.checker, { startHost: start.host, checkOnly: opts.checkOnly, exclude: opts.exclude, accept: opts.accept, onChange: emit });
  const startNorm = normalise(start.href)?.norm ?? start.href;
  const startEntry: LedgerEntry = { url: startNorm, scope: 'internal', resources: new Set(['page']), sources: [], fragments: new Map() };
  ledger.entries.set(startNorm, startEntry);
  ledger.claim(startNorm);

  const enqueue = (entry: LedgerEntry) => {
    ledger.claim(entry.url);
    queuedPages++;
    queue.push({ entry });
    pump(); // its request goes out before the links found with it are checked
  };

  const resources = deps.renderer ? new RenderResources((url) => deps.checker.fetchBytes(url)) : undefined;
  const renders = deps.renderer?.open(resources);
  let stylesheets = 0;
  const crawlable = (link: FoundLink, entry: LedgerEntry) =>
    link.navigational && entry.scope === 'internal' && !NON_HTML.test(new URL(entry.url).pathname) && queuedPages < opts.maxPages;

  /**
   * Same-site pages and style sheets outside `check_only=external`: still crawled and read for
   * the external links on them, never reported (the link itself counts as skipped).
   */
  const unreported = new Map<string, LedgerEntry>();
  const readOnly = (link: FoundLink): LedgerEntry | undefined => {
    const read = link.navigational || link.resource === 'stylesheet';
    const n = opts.checkOnly === 'external' && read ? normalise(link.url) : null;
    if (!n || ledger.excludes(link.url) || !sameSiteHost(n.norm, start)) return undefined;
    let e = unreported.get(n.norm);
    if (!e) unreported.set(n.norm, (e = { url: n.norm, scope: 'internal', resources: new Set([link.resource]), sources: [], fragments: new Map() }));
    return e;
  };
  const record = (entry: LedgerEntry, result: CheckResult) => {
    if (unreported.has(entry.url)) entry.result ??= result;
    else ledger.record(entry, result);
  };

  /** Records a link found on a page, then crawls it (same-site page), reads it (same-site style sheet) or checks it. */
  const follow = (link: FoundLink, from: string) => {
    const e = ledger.add(link, { page: from }) ?? readOnly(link);
    if (!e || e.result || ledger.isClaimed(e.url)) return;
    if (crawlable(link, e)) enqueue(e);
    else if (link.resource === 'stylesheet' && e.scope === 'internal' && stylesheets < MAX_STYLESHEETS) {
      stylesheets++;
      ledger.claim(e.url);
      ledger.track(readStylesheet(e));
    } else if (!unreported.has(e.url)) ledger.schedule(e);
  };

  /** A same-site style sheet: checked, and its `url()`s and `@import`s followed (relative to the sheet). */
  const readStylesheet = async (entry: LedgerEntry) => {
    const out = await deps.checker.fetchPage(entry.url);
    if (!out) return;
    if (out.bodyType === 'css' && out.body !== undefined) {
      for (const ref of scanCss(out.body)) {
        const url = resolveIn(ref.value, out.result.final_url, out.encoding);
        const resource = ref.kind === 'import' ? 'stylesheet' : ref.kind === 'font' ? 'other' : 'image';
        follow(url ? { url, resource, navigational: false } : { url: ref.value, resource, navigational: false }, entry.url);
      }
    }
    record(entry, out.result);
  };

  /** The check (or, for a same-site style sheet, the read) `follow` would start for `link`, started now. */
  const checkAhead = (link: FoundLink) => {
    const n = normalise(link.url);
    if (!n || ledger.excludes(link.url) || ledger.isClaimed(n.norm) || ledger.entries.get(n.norm)?.result) return;
    const internal = sameSiteHost(n.norm, start);
    if (opts.checkOnly && opts.checkOnly !== (internal ? 'internal' : 'external') && !(internal && link.resource === 'stylesheet')) return;
    deps.checker.ahead(n.norm, internal && link.resource === 'stylesheet' ? 'page' : 'check');
  };

  const loader = new PageLoader({
    checkAhead,
    checker: deps.checker,
    renders,
    resources,
    sameSite: (url) => sameSiteHost(url, start),
    crawlable: (url) =>
      sameSiteHost(url, start) && !NON_HTML.test(new URL(url).pathname) && !ledger.excludes(url) && !ledger.isClaimed(url),
    deadline: opts.deadline,
    signal: opts.signal,
    speculationBudget: opts.maxPages,
  });

  const processPage = async (entry: LedgerEntry) => {
    // The HTTP fetch gives the page's status, redirect chain and error kind; the browser then
    // supplies the DOM after scripts ran (see page-loader.ts).
    const loaded = await loader.take(entry.url);
    if (!loaded) return;
    if (loaded.rendered) renderedPages++;
    const { out, anchors: pageAnchors, navigatedTo } = loaded;
    let { html, encoding } = loaded;
    let result = out.result;
    // Where the crawl lands after redirects is the base for relative links.
    const base = result.final_url;
    if (html && !sameSiteHost(base, start)) html = undefined; // redirected off-site: check it, do not crawl it
    let refresh: string | undefined;
    if (html) {
      pagesCrawled++;
      const page = extractHtml(html, base, encoding);
      refresh = page.refresh;
      anchors.set(entry.url, pageAnchors ?? page.anchors);
      const finalNorm = normalise(base)?.norm;
      if (finalNorm && finalNorm !== entry.url) anchors.set(finalNorm, pageAnchors ?? page.anchors);
      // Pages first: their fetches open the crawl's next level, checks of the rest can wait.
      for (const link of page.links) if (link.navigational) follow(link, entry.url);
      for (const link of page.links) if (!link.navigational) follow(link, entry.url);
    }
    // A page that sends the browser on (meta refresh, script) is a redirect; where it goes is crawled like a link.
    const to = navigatedTo ?? (refresh && normalise(refresh)?.norm !== normalise(base)?.norm ? refresh : undefined);
    if (to && result.status !== null && result.status < 400) {
      result = clientRedirect(result, to, to === refresh ? 'meta_refresh' : 'script');
      follow({ url: to, resource: 'page', navigational: true }, entry.url);
    }
    record(entry, result);
  };

  const workers = PAGES_AT_ONCE;
  let active = 0;
  let crawled = () => {};
  const allCrawled = new Promise<void>((resolve) => (crawled = resolve));
  /** Starts queued pages while workers are free; runs whenever a page is queued or done. */
  function pump() {
    if (opts.signal.aborted) queue.length = 0;
    while (active < workers && queue.length) {
      const next = queue.shift();
      if (!next) break;
      active++;
      void processPage(next.entry)
        .catch(() => undefined) // a page that throws is a bug in extraction; the crawl goes on
        .finally(() => {
          active--;
          emit();
          pump();
        });
    }
    if (active === 0 && queue.length === 0) crawled();
  }
  enqueue(startEntry);
  queuedPages = 1;
  await allCrawled;
  loader.close();
  renders?.close();
  // Pages queued beyond the deadline were never fetched: fall back to checking them.
  await ledger.settle();
  return { ledger, pagesCrawled, renderedPages, anchors, start: startEntry.result ?? null };
}

/** The page's own result with the browser's navigation as a last hop. */
function clientRedirect(result: CheckResult, to: string, client: 'meta_refresh' | 'script'): CheckResult {
  const hop = { url: result.final_url, status: result.status ?? 200, location: to, client };
  return { ...result, kind: 'redirect', redirect_chain: [...result.redirect_chain, hop], final_url: to };
}

function sameSiteHost(url: string, start: URL): boolean {
  try {
    return sameSite(new URL(url).host, start.host);
  } catch {
    return false;
  }
}
