import type { Redis } from 'ioredis';
import type { CheckResult } from './types.js';

export interface ResultCacheOptions {
  /** Seconds an `ok`/`redirect` result is reused. 0 disables caching. */
  okSeconds: number;
  /** Seconds a failure is reused (shorter, so fixed links show up soon). */
  failSeconds: number;
}

/** Results that depend on the moment or on the caller, never shared. */
const UNCACHED = new Set(['blocked_target', 'rate_limited', 'timeout', 'invalid_url']);

/**
 * Link results shared across requests and tenants for a short time, so repeated checks
 * of the same site are fast and polite to it.
 */
export class ResultCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly opts: ResultCacheOptions,
  ) {}

  private key(url: string) {
    return `${this.prefix}links:r:${url}`;
  }

  async get(url: string): Promise<CheckResult | null> {
    if (this.opts.okSeconds <= 0) return null;
    const raw = await this.redis.get(this.key(url)).catch(() => null);
    if (!raw) return null;
    try {
      return { ...(JSON.parse(raw) as CheckResult), cached: true };
    } catch {
      return null; // a corrupt entry is a miss
    }
  }

  async set(result: CheckResult): Promise<void> {
    if (this.opts.okSeconds <= 0 || UNCACHED.has(result.kind)) return;
    const fine = result.kind === 'ok' || result.kind === 'redirect';
    const ttl = fine ? this.opts.okSeconds : this.opts.failSeconds;
    if (ttl <= 0) return;
    const { cached: _c, ...stored } = result;
    await this.redis.set(this.key(result.url), JSON.stringify(stored), 'EX', ttl).catch(() => undefined);
  }
}
