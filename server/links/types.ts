/** What a link points at, from the tag or syntax it was found in. */
export type LinkResource = 'page' | 'image' | 'script' | 'stylesheet' | 'frame' | 'media' | 'other';

/** Internal: same site as the start page (host equal up to a leading `www.`). */
export type LinkScope = 'internal' | 'external';

/**
 * Stable outcome codes. `ok` and `redirect` are fine; warning kinds are listed but not
 * counted as broken; every other kind is broken.
 */
export type LinkKind =
  | 'ok'
  | 'redirect'
  | `http_${number}`
  | 'dns'
  | 'refused'
  | 'reset'
  | 'timeout'
  | 'tls'
  | 'network'
  | 'blocked_target'
  | 'redirect_loop'
  | 'too_many_redirects'
  | 'invalid_url'
  | 'bot_blocked'
  | 'rate_limited'
  | 'missing_fragment'
  | 'missing_file'
  | 'unreadable'
  | 'unused_definition'
  | 'offline'
  | 'fragment_not_judged'
  | 'outside_repository';

/** Kinds that are reported but do not count as broken. */
export const warningKinds: ReadonlySet<string> = new Set(['bot_blocked', 'rate_limited', 'missing_fragment', 'unused_definition']);

/**
 * Links found but not checked in this run, listed in the report's `not_checked`: an external
 * link with `offline`, a `#fragment` into a file whose anchors were not sent, a link above the
 * repository root to a GitHub page when the repository is not named.
 */
export const notCheckedKinds: ReadonlySet<string> = new Set(['offline', 'fragment_not_judged', 'outside_repository']);

export interface RedirectHop {
  url: string;
  status: number;
  location: string;
  /** A redirect made by the page in the browser, not by HTTP: `<meta http-equiv=refresh>` or script. */
  client?: 'meta_refresh' | 'script';
}

/** The outcome of requesting one normalised URL (no fragment). */
export interface CheckResult {
  url: string;
  /** Final HTTP status, or null when no response arrived. */
  status: number | null;
  kind: LinkKind;
  /** Hops before the final response; empty when there was no redirect. */
  redirect_chain: RedirectHop[];
  final_url: string;
  /** Innermost error message for network failures. */
  error?: string;
  /** True when this result came from the shared result cache. */
  cached?: boolean;
  /** True when a real browser confirmed a bot-blocked link loads. */
  browser_verified?: boolean;
}

/** Where a link was found: a page URL, or a repository file with line and column (GitHub and documents modes). */
export interface LinkSource {
  page: string;
  file?: string;
  line?: number;
  column?: number;
}

/** One link as found in a document, before checking. */
export interface FoundLink {
  /** Absolute URL including any fragment. */
  url: string;
  resource: LinkResource;
  /** True for links a crawler may follow to another page (a, area, iframe, meta refresh). */
  navigational: boolean;
  /** 1-based place in the document it was read from. */
  line?: number;
  column?: number;
}

export const isBroken = (kind: LinkKind): boolean => kind !== 'ok' && kind !== 'redirect' && !warningKinds.has(kind) && !notCheckedKinds.has(kind);

/** Whether a result is a link checked (counted in `total_links_checked`): not a finding about the document, not a link left unchecked. */
export const isCheckedLink = (kind: LinkKind): boolean => kind !== 'unused_definition' && !notCheckedKinds.has(kind);
