import { extractHtml } from './extract-html.js';
import type { ProbeOutcome } from './http-probe.js';
import type { LinkChecker } from './link-checker.js';
import { normalise } from './link-ledger.js';
import type { FoundLink } from './types.js';
import { needsBrowser } from './needs-browser.js';
import type { RenderResources } from './render-resources.js';
import type { RenderSession } from './site-crawler.js';

/** A crawled page as fetched and, when it has scripts, as the browser left it. */
export interface LoadedPage {
  out: ProbeOutcome;
  /** The rendered DOM, or the fetched HTML when the page was not rendered; absent for non-HTML. */
  html?: string;
  encoding?: string;
  /** Ids and names of the rendered DOM (rendered pages only). */
  anchors?: Set<string>;
  /** The page navigated its main frame here in the browser. */
  navigatedTo?: string;
  rendered: boolean;
}

export interface PageLoaderOptions {
  checker: LinkChecker;
  /** Renders pages with scripts; absent when not rendering. */
  renders?: RenderSession;
  /** The renders' scripts and style sheets: a page's are fetched as soon as its HTML is read. */
  resources?: RenderResources;
  /** Whether a URL belongs to the crawled site (only its pages are rendered). */
  sameSite(url: string): boolean;
  /** A link that is not a page, found in a page still rendering: checked ahead if the crawl would check it. */
  checkAhead(link: FoundLink): void;
  /** Same-site URLs the crawl would fetch as pages; speculation fetches no others. */
  crawlable(url: string): boolean;
  deadline: number;
  signal: AbortSignal;
  /** Pages loaded ahead of being found, at most. */
  speculationBudget: number;
}

/**
 * Fetches and renders the crawl's pages. A render takes far longer than a fetch, and the
 * pages a page links to are only known once its render ends; so while a page renders, the
 * pages its fetched HTML links to are loaded ahead (fetched, and rendered when they have
 * scripts). They count for nothing until the rendered page, or another, really links to
 * them: `take` then hands over the work already done. Findings are the same; a link that a
 * script removes only costs a wasted fetch.
 */
export class PageLoader {
  /** Pages loaded ahead and not yet taken. */
  private readonly ahead = new Map<string, Promise<LoadedPage | null>>();
  /** Every URL taken or loaded ahead, so none is loaded twice. */
  private readonly seen = new Set<string>();
  private speculated = 0;
  private closed = false;

  constructor(private readonly opts: PageLoaderOptions) {}

  /** The page at `url` (a normalised URL), loaded now or taken from the work done ahead. */
  take(url: string): Promise<LoadedPage | null> {
    const early = this.ahead.get(url);
    this.ahead.delete(url);
    this.seen.add(url);
    return early ?? this.load(url);
  }

  /** The crawl is over: work loaded ahead and not started yet is not started. */
  close(): void {
    this.closed = true;
  }

  private async load(url: string): Promise<LoadedPage | null> {
    const { checker, renders, signal, deadline } = this.opts;
    if (deadline <= Date.now() || signal.aborted || this.closed) return null;
    const out = await checker.fetchPage(url);
    if (!out) return null;
    const fetchedHtml = out.bodyType === 'html' ? out.body : undefined;
    const page: LoadedPage = { out, html: fetchedHtml, encoding: out.encoding, rendered: false };
    const final = out.result.final_url;
    // A page without scripts has the same links and ids in a browser: its HTML is the DOM.
    if (!fetchedHtml || !renders || this.closed || !this.opts.sameSite(final) || (out.refresh === undefined && !needsBrowser(fetchedHtml))) return page;
    this.loadAhead(fetchedHtml, final, out.encoding);
    // Served to the browser as fetched (only as UTF-8 text, and not when a Refresh header must act).
    const fetched = out.encoding === 'utf-8' && out.refresh === undefined ? { html: fetchedHtml, contentType: `${mimeOf(out.contentType)}; charset=utf-8` } : undefined;
    // A page the browser cannot open keeps its fetched HTML.
    const shown = await renders.render(final, deadline - Date.now(), fetched).catch(() => null);
    if (signal.aborted) return null;
    page.navigatedTo = shown?.navigatedTo;
    if (shown?.html) Object.assign(page, { html: shown.html, anchors: shown.anchors, encoding: shown.encoding ?? out.encoding, rendered: true });
    return page;
  }

  /**
   * While a page renders: what the browser will ask for first (its scripts and style sheets),
   * the checks of the links in its HTML, and the pages it links to.
   */
  private loadAhead(html: string, base: string, encoding: string | undefined) {
    const { links } = extractHtml(html, base, encoding);
    this.opts.resources?.prefetch(links.filter((l) => l.resource === 'script' || l.resource === 'stylesheet').map((l) => l.url));
    for (const link of links) if (!link.navigational) this.opts.checkAhead(link);
    for (const link of links) {
      if (this.speculated >= this.opts.speculationBudget) return;
      const url = link.navigational ? normalise(link.url)?.norm : undefined;
      if (!url || this.seen.has(url) || !this.opts.crawlable(url)) continue;
      this.seen.add(url);
      this.speculated++;
      const early = this.load(url);
      early.catch(() => undefined); // taken later, or never
      this.ahead.set(url, early);
    }
  }
}

/** The MIME type of a `Content-Type` value (text/html when absent). */
const mimeOf = (contentType: string | undefined) => contentType?.split(';')[0].trim() || 'text/html';
