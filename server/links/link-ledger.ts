import type { LinkChecker } from './link-checker.js';
import type { CheckResult, FoundLink, LinkResource, LinkScope, LinkSource } from './types.js';

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

const SKIPPED_SCHEMES = /^(mailto|tel|sms|javascript|data|blob|about|ftp|file|irc|news|geo|skype|callto|whatsapp|magnet|urn):/i;

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

/**
 * The run's set of links: each URL checked once however often it appears, every page
 * (or file and line) it appears on kept.
 */
export class LinkLedger {
  readonly entries = new Map<string, LedgerEntry>();
  skipped = 0;
  private readonly pending = new Set<Promise<void>>();
  private checked = 0;
  private broken = 0;

  constructor(
    private readonly startHost: string,
    private readonly checker: LinkChecker,
    private readonly opts: { checkOnly?: LinkScope; onChange?: () => void; isBroken: (r: CheckResult) => boolean },
  ) {}

  scopeOf(url: URL): LinkScope {
    return sameSite(url.host, this.startHost) ? 'internal' : 'external';
  }

  /**
   * Records `link` found at `source`. Returns the entry when the link is http(s) and
   * within `check_only`, else null (and counts skipped schemes).
   */
  add(link: FoundLink, source: LinkSource): LedgerEntry | null {
    if (SKIPPED_SCHEMES.test(link.url)) {
      this.skipped++;
      return null;
    }
    const n = normalise(link.url);
    if (!n) {
      return this.addInvalid(link, source);
    }
    const scope = this.scopeOf(new URL(n.norm));
    if (this.opts.checkOnly && this.opts.checkOnly !== scope) return null;
    let e = this.entries.get(n.norm);
    if (!e) {
      e = { url: n.norm, scope, resources: new Set(), sources: [], fragments: new Map() };
      this.entries.set(n.norm, e);
    }
    e.resources.add(link.resource);
    if (!e.sources.some((s) => s.page === source.page && s.line === source.line && s.file === source.file)) e.sources.push(source);
    if (n.fragment) {
      const list = e.fragments.get(n.fragment) ?? [];
      list.push(source);
      e.fragments.set(n.fragment, list);
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
    e.result = r;
    this.checked++;
    if (this.opts.isBroken(r)) this.broken++;
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
