import type { LinkChecker } from './link-checker.js';
import { isBroken, type CheckResult, type FoundLink, type LinkResource, type LinkScope, type LinkSource } from './types.js';
import type { UrlPattern } from './url-pattern.js';

/** One normalised URL (no fragment) with everything known about it in this run. */
export interface LedgerEntry {
  url: string;
  scope: LinkScope;
  resources: Set<LinkResource>;
  sources: LinkSource[];
  /** Fragment → where a link with it was found. */
  fragments: Map<string, LinkSource[]>;
  result?: CheckResult;
}

export interface LedgerProgress {
  links_found: number;
  links_checked: number;
  broken_so_far: number;
}

/** Same site = same host (name and port) up to a leading `www.`. */
export function sameSite(a: string, b: string): boolean {
  const strip = (h: string) => h.toLowerCase().replace(/^www\./, '');
  return strip(a) === strip(b);
}

/** The URL checked for a link: fragment removed, everything else as the URL standard serialises it. */
export function normalise(url: string): { norm: string; fragment: string } | null {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    const fragment = u.hash.replace(/^#/, '');
    u.hash = '';
    return { norm: u.href, fragment };
  } catch {
    return null;
  }
}

export interface LedgerOptions {
  /** Host of the start page: links to it (up to `www.`) are internal. */
  startHost: string;
  checkOnly?: LinkScope;
  /** URL patterns not checked (counted as skipped). */
  exclude?: UrlPattern[];
  /** Extra statuses counted as working (`accept=403,429`). */
  accept?: ReadonlySet<number>;
  onChange?: () => void;
}

/** What an entry is checked as, when it is not an http(s) URL to normalise (a repository file). */
export interface EntryKey {
  /** Identity in the ledger: one entry per key. */
  key: string;
  /** Shown as the link's `url`. */
  url: string;
  scope: LinkScope;
  fragment: string;
}

/**
 * The run's set of links: each URL checked once however often it appears, every page
 * (or file, line and column) it appears on kept.
 */
export class LinkLedger {
  readonly entries = new Map<string, LedgerEntry>();
  /** Links not checked by rule (another scheme, `exclude`, `check_only`), each counted once however often it appears. */
  private readonly skippedLinks = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  private checked = 0;
  private broken = 0;

  constructor(
    private readonly checker: LinkChecker,
    private readonly opts: LedgerOptions,
  ) {}

  scopeOf(url: URL): LinkScope {
    return sameSite(url.host, this.opts.startHost) ? 'internal' : 'external';
  }

  /** Counts a link not checked by rule (excluded, another scheme, outside `check_only`); null, for the caller to return. */
  skip(url: string): null {
    this.skippedLinks.add(url);
    return null;
  }

  get skipped(): number {
    return this.skippedLinks.size;
  }

  /** The links counted in `skipped`. */
  skippedUrls(): string[] {
    return [...this.skippedLinks].sort();
  }

  /** True when `url` matches an `exclude` pattern: such links are counted as skipped, never checked. */
  excludes(url: string): boolean {
    return (this.opts.exclude ?? []).some((re) => re.test(url));
  }

  /**
   * Records `link` found at `source`. Returns the entry when the link is http(s), not
   * excluded and within `check_only`; null otherwise (other schemes and excluded links
   * count as skipped). A value that is not a URL at all is an `invalid_url` entry.
   */
  add(link: FoundLink, source: LinkSource): LedgerEntry | null {
    if (!URL.canParse(link.url)) return this.addInvalid(link, source);
    const n = normalise(link.url);
    if (!n) return this.skip(link.url);
    if (this.excludes(link.url)) return this.skip(n.norm);
    return this.addAs({ key: n.norm, url: n.norm, scope: this.scopeOf(new URL(n.norm)), fragment: n.fragment }, link.resource, source);
  }

  /** Records a link under an identity of the caller's (a repository file); null when `id.url` is excluded or outside `check_only` (both skipped). */
  addAs(id: EntryKey, resource: LinkResource, source: LinkSource): LedgerEntry | null {
    if (this.excludes(id.url) || (this.opts.checkOnly && this.opts.checkOnly !== id.scope)) return this.skip(id.key);
    let e = this.entries.get(id.key);
    if (!e) {
      e = { url: id.url, scope: id.scope, resources: new Set(), sources: [], fragments: new Map() };
      this.entries.set(id.key, e);
    }
    e.resources.add(resource);
    const same = (s: LinkSource) => s.page === source.page && s.line === source.line && s.column === source.column && s.file === source.file;
    if (!e.sources.some(same)) e.sources.push(source);
    if (id.fragment) {
      const list = e.fragments.get(id.fragment) ?? [];
      if (!list.some(same)) list.push(source);
      e.fragments.set(id.fragment, list);
    }
    return e;
  }

  /** Checks the entry with HEAD→GET unless it already has (or awaits) a result. */
  schedule(e: LedgerEntry): void {
    if (e.result || this.scheduled.has(e.url)) return;
    this.scheduled.add(e.url);
    this.track(
      this.checker.check(e.url).then((r) => {
        if (r) this.record(e, r);
      }),
    );
  }

  /** Marks an entry as taken care of elsewhere (a crawled page), so `schedule` leaves it alone. */
  claim(url: string): void {
    this.scheduled.add(url);
  }

  isClaimed(url: string): boolean {
    return this.scheduled.has(url);
  }

  record(e: LedgerEntry, r: CheckResult): void {
    if (e.result) return;
    e.result = this.accepted(r);
    this.checked++;
    // Counted as the report counts it: a status the caller accepts is not broken.
    if (isBroken(e.result.kind)) this.broken++;
    this.opts.onChange?.();
  }

  track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Waits until every scheduled check has settled (checks started meanwhile included). */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  progress(): LedgerProgress {
    return { links_found: this.entries.size, links_checked: this.checked, broken_so_far: this.broken };
  }

  private readonly scheduled = new Set<string>();

  /** A status the caller accepts is a working link, whatever kind the checker gave it. */
  private accepted(r: CheckResult): CheckResult {
    if (r.status === null || !this.opts.accept?.has(r.status) || r.kind === 'ok' || r.kind === 'redirect') return r;
    return { ...r, kind: r.redirect_chain.length ? 'redirect' : 'ok' };
  }

  private addInvalid(link: FoundLink, source: LinkSource): LedgerEntry {
    const key = `invalid:${link.url}`;
    let e = this.entries.get(key);
    if (!e) {
      e = { url: link.url, scope: 'internal', resources: new Set([link.resource]), sources: [], fragments: new Map() };
      this.entries.set(key, e);
      this.record(e, { url: link.url, status: null, kind: 'invalid_url', redirect_chain: [], final_url: link.url, error: 'not a valid URL' });
    }
    e.sources.push(source);
    return e;
  }
}
