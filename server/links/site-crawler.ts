import { extractHtml } from './extract-html.js';
import type { LinkChecker } from './link-checker.js';
import { LinkLedger, normalise, sameSite, type LedgerEntry } from './link-ledger.js';
import type { CheckResult, FoundLink, LinkScope } from './types.js';

/** A rendered page: what the browser saw after scripts ran. */
export interface RenderedPage {
  result: CheckResult;
  /** Serialised DOM; absent when the page is not HTML or failed. */
  html?: string;
  /** Element ids and names of the rendered DOM. */
  anchors?: Set<string>;
}

/** Renders pages in a real browser (full mode); the crawler has fetched them first. */
export interface PageRenderer {
  render(url: string, timeoutMs: number): Promise<RenderedPage>;
  /** Second opinion on a bot-blocked link: the status a browser navigation gets (null on failure). */
  verify(url: string, timeoutMs: number): Promise<number | null>;
  /** Pages rendered at once. */
  concurrency: number;
}

export interface CrawlOptions {
  url: string;
  /** Pages fetched and parsed for links (1 = quick mode). Infinity allowed for benches. */
  maxPages: number;
  /** When the run must stop and report what it has. */
  deadline: number;
  signal: AbortSignal;
  checkOnly?: LinkScope;
  /** Concurrent page fetches when not rendering. @default 16 */
  pageConcurrency?: number;
}

export interface CrawlDeps {
  checker: LinkChecker;
  renderer?: PageRenderer;
  onProgress?: (p: CrawlProgress) => void;
  isBroken: (r: CheckResult) => boolean;
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
  const ledger = new LinkLedger(start.host, deps.checker, { checkOnly: opts.checkOnly, onChange: emit, isBroken: deps.isBroken });
  const startNorm = normalise(start.href)?.norm ?? start.href;
  const startEntry: LedgerEntry = { url: startNorm, scope: 'internal', resources: new Set(['page']), sources: [], fragments: new Map() };
  ledger.entries.set(startNorm, startEntry);
  ledger.claim(startNorm);

  const enqueue = (entry: LedgerEntry) => {
    ledger.claim(entry.url);
    queuedPages++;
    queue.push({ entry });
  };

  const crawlable = (link: FoundLink, entry: LedgerEntry) =>
    link.navigational && entry.scope === 'internal' && !NON_HTML.test(new URL(entry.url).pathname) && queuedPages < opts.maxPages;

  const processPage = async (entry: LedgerEntry) => {
    if (opts.deadline <= Date.now() || opts.signal.aborted) return;
    let result: CheckResult;
    let html: string | undefined;
    let pageAnchors: Set<string> | undefined;
    // The HTTP fetch gives the page's status, redirect chain and error kind; the browser then
    // supplies the DOM after scripts ran. A page the browser cannot open keeps its fetched HTML.
    const out = await deps.checker.fetchPage(entry.url);
    if (!out) return;
    result = out.result;
    html = out.body;
    if (html && deps.renderer && sameSiteHost(result.final_url, start)) {
      const page = await deps.renderer.render(result.final_url, opts.deadline - Date.now()).catch(() => null);
      if (opts.signal.aborted) return;
      if (page?.html) {
        html = page.html;
        pageAnchors = page.anchors;
        renderedPages++;
      }
    }
    // Where the crawl lands after redirects is the base for relative links.
    const base = result.final_url;
    if (html && !sameSiteHost(base, start)) html = undefined; // redirected off-site: check it, do not crawl it
    if (html) {
      pagesCrawled++;
      const page = extractHtml(html, base);
      anchors.set(entry.url, pageAnchors ?? page.anchors);
      const finalNorm = normalise(base)?.norm;
      if (finalNorm && finalNorm !== entry.url) anchors.set(finalNorm, pageAnchors ?? page.anchors);
      for (const link of page.links) {
        const e = ledger.add(link, { page: entry.url });
        if (!e || e.result || ledger.isClaimed(e.url)) continue;
        if (crawlable(link, e)) enqueue(e);
        else ledger.schedule(e);
      }
    }
    ledger.record(entry, result);
  };

  enqueue(startEntry);
  queuedPages = 1;
  const workers = deps.renderer ? deps.renderer.concurrency : (opts.pageConcurrency ?? 16);
  let active = 0;
  await new Promise<void>((resolve) => {
    const pump = () => {
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
      if (active === 0 && queue.length === 0) resolve();
    };
    pump();
  });
  // Pages queued beyond the deadline were never fetched: fall back to checking them.
  await ledger.settle();
  return { ledger, pagesCrawled, renderedPages, anchors, start: startEntry.result ?? null };
}

function sameSiteHost(url: string, start: URL): boolean {
  try {
    return sameSite(new URL(url).host, start.host);
  } catch {
    return false;
  }
}
