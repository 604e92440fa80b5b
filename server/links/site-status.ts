import type { Redis } from 'ioredis';
import type { DeadLinkReport } from './report.js';

/** The short public status of a site shown by the widget and the badge. */
export interface SiteStatus {
  target: string;
  health_score: number;
  broken_count: number;
  total_links_checked: number;
  pages_crawled: number;
  mode: DeadLinkReport['mode'];
  checked_at: string;
  /** Up to 10 broken links (url and kind). */
  broken_links: Array<{ url: string; kind: string; status: number | null }>;
}

/** The key a site's status is stored under: origin + path, no query or fragment. */
export function statusKey(target: string): string {
  const u = new URL(target);
  return `${u.origin}${u.pathname}`;
}

export function toStatus(report: DeadLinkReport): SiteStatus {
  return {
    target: report.target,
    health_score: report.summary.health_score,
    broken_count: report.broken_count,
    total_links_checked: report.total_links_checked,
    pages_crawled: report.pages_crawled,
    mode: report.mode,
    checked_at: report.checked_at,
    broken_links: report.broken_links.slice(0, 10).map((i) => ({ url: i.url, kind: i.kind, status: i.status })),
  };
}

/**
 * Latest status per site, written by every completed check (any caller) and read by the
 * widget and badge endpoints, so page visitors never start crawls of their own.
 */
export class SiteStatusStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  async save(report: DeadLinkReport): Promise<void> {
    if (report.mode === 'github' || report.timed_out) return;
    await this.redis
      .set(`${this.prefix}links:status:${statusKey(report.target)}`, JSON.stringify(toStatus(report)), 'EX', this.ttlSeconds)
      .catch(() => undefined);
  }

  async load(target: string): Promise<SiteStatus | null> {
    const raw = await this.redis.get(`${this.prefix}links:status:${statusKey(target)}`);
    return raw ? (JSON.parse(raw) as SiteStatus) : null;
  }

  /** Takes a short lock so concurrent visitors of an uncached site share one check. */
  async lock(target: string, seconds: number): Promise<boolean> {
    const ok = await this.redis.set(`${this.prefix}links:status-lock:${statusKey(target)}`, '1', 'EX', seconds, 'NX');
    return ok === 'OK';
  }

  async unlock(target: string): Promise<void> {
    await this.redis.del(`${this.prefix}links:status-lock:${statusKey(target)}`);
  }

  /** Counts one fresh check for `ip`; false when the hourly allowance is used up. */
  async allowFreshCheck(ip: string, perHour: number): Promise<boolean> {
    const key = `${this.prefix}links:status-fresh:${ip}`;
    const n = await this.redis.incr(key);
    if (n === 1) await this.redis.expire(key, 3600);
    return n <= perHour;
  }
}
