import type { Redis } from 'ioredis';
import type { CheckResult } from './types.js';

export interface ResultCacheOptions {
  /** Seconds an `ok`/`redirect` result is reused. 0 disables caching. */
  okSeconds: number;
  /** Seconds a failure is reused (shorter, so fixed links show up soon); never more than `MAX_FAIL_SECONDS`. */
  failSeconds: number;
}

/** What a link check reads and writes: the shared cache, or one caller's view of it (`forCaller`). */
export interface LinkResultCache {
  get(url: string): Promise<CheckResult | null>;
  set(result: CheckResult): Promise<void>;
}

/** Bounds of a caller's `cache_ttl`, in seconds: a minute to a week. */
export const CACHE_TTL_BOUNDS = { min: 60, max: 604_800 } as const;

/** A failure is reused for a minute at most, whatever a caller or the operator asks: a fixed link must show up soon. */
export const MAX_FAIL_SECONDS = 60;

/** Results that depend on the moment or on the caller, never shared. */
const UNCACHED = new Set(['blocked_target', 'rate_limited', 'timeout', 'invalid_url']);

const fine = (r: CheckResult) => r.kind === 'ok' || r.kind === 'redirect';
/** A 429 says "not now", whatever kind it was filed under (bot protection answers 429 too): never kept. */
const cacheable = (r: CheckResult) => !UNCACHED.has(r.kind) && r.status !== 429;

interface Stored extends CheckResult {
  /** When the result was taken (ms since the epoch), so a caller asking a shorter TTL than the entry's gets no older result. */
  at?: number;
}

/**
 * Link results shared across requests and tenants for a short time, so repeated checks
 * of the same site are fast and polite to it.
 */
export class ResultCache implements LinkResultCache {
  private readonly failSeconds: number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly opts: ResultCacheOptions,
  ) {
    this.failSeconds = Math.min(opts.failSeconds, MAX_FAIL_SECONDS);
  }

  /** The shared TTL of working links, what a request without `cache_ttl` gets. */
  get defaultTtl(): number {
    return this.opts.okSeconds;
  }

  private key(url: string, scope?: string) {
    return scope === undefined ? `${this.prefix}links:r:${url}` : `${this.prefix}links:rs:${scope}:${url}`;
  }

  private async read(key: string): Promise<Stored | null> {
    const raw = await this.redis.get(key).catch(() => null);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as Stored;
    } catch {
      return null; // a corrupt entry is a miss
    }
  }

  private async write(key: string, result: CheckResult, ttl: number): Promise<void> {
    if (ttl <= 0) return;
    const { cached: _c, ...stored } = result;
    await this.redis.set(key, JSON.stringify({ ...stored, at: Date.now() } satisfies Stored), 'EX', ttl).catch(() => undefined);
  }

  private static hit({ at: _at, ...result }: Stored): CheckResult {
    return { ...result, cached: true };
  }

  async get(url: string): Promise<CheckResult | null> {
    if (this.opts.okSeconds <= 0) return null;
    const stored = await this.read(this.key(url));
    return stored ? ResultCache.hit(stored) : null;
  }

  async set(result: CheckResult): Promise<void> {
    if (this.opts.okSeconds <= 0 || !cacheable(result)) return;
    await this.write(this.key(result.url), result, fine(result) ? this.opts.okSeconds : this.failSeconds);
  }

  /**
   * One caller's view for a `cache_ttl` other than the default: its working results are kept
   * `ttlSeconds` under its own scope (an API key, or an address when keyless), so a long TTL
   * never makes another tenant's results older than the default. The shared entries still serve
   * it when the TTL is at least the default (they are never older than that), and it still
   * fills them for everyone. Failures stay at most a minute, 429s are never kept.
   */
  forCaller(scope: string, ttlSeconds: number | undefined): LinkResultCache {
    if (ttlSeconds === undefined || ttlSeconds === this.opts.okSeconds || this.opts.okSeconds <= 0) return this;
    const maxAge = (r: CheckResult) => (fine(r) ? ttlSeconds : this.failSeconds) * 1000;
    return {
      get: async (url) => {
        const own = await this.read(this.key(url, scope));
        if (own && own.at !== undefined && Date.now() - own.at <= maxAge(own)) return ResultCache.hit(own);
        return ttlSeconds > this.opts.okSeconds ? this.get(url) : null;
      },
      set: async (result) => {
        if (!cacheable(result)) return;
        await Promise.all([this.set(result), this.write(this.key(result.url, scope), result, fine(result) ? ttlSeconds : this.failSeconds)]);
      },
    };
  }
}

/**
 * A cache for a check that sends headers to one origin (a protected preview, `target_headers`):
 * that origin answers these requests as it answers no one else, so no result that touched it
 * (the URL, a hop of its redirects, or where they ended) is read from or written to `cache`;
 * every other link (the external ones, most of a site's) is cached as for any check.
 */
export function cacheOffOrigin(cache: LinkResultCache, origin: string): LinkResultCache {
  const onOrigin = (url: string) => {
    try {
      return new URL(url).origin === origin;
    } catch {
      return false;
    }
  };
  const touches = (r: CheckResult) => onOrigin(r.url) || onOrigin(r.final_url) || r.redirect_chain.some((hop) => onOrigin(hop.url) || onOrigin(hop.location));
  return {
    get: async (url) => {
      if (onOrigin(url)) return null;
      const hit = await cache.get(url);
      return hit && !touches(hit) ? hit : null;
    },
    set: async (result) => {
      if (!touches(result)) await cache.set(result);
    },
  };
}
