import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooMany } from './errors.js';
import { ipLimits, keylessLimits, perKeyExtra, type LimitName } from './limit-rules.js';
import type { KeyRecord } from '../keys/key-store.js';
import { tierQuotas } from '../keys/tiers.js';

/** What the RateLimit-* headers report: the window closest to running out. */
export interface RateState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

const DAY = 24 * 60 * 60;

/**
 * All request limits, kept in Redis by rate-limiter-flexible so every process that
 * shares the Redis shares the counts (its consume is one atomic script).
 */
export class Limiter {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly cheapPerMinute = 600,
  ) {}

  private limiter(bucket: string, points: number, duration: number): RateLimiterRedis {
    const id = `${bucket}:${points}:${duration}`;
    let l = this.limiters.get(id);
    if (!l) {
      // The count key does not include `points`, so a tier change keeps today's count.
      l = new RateLimiterRedis({ storeClient: this.redis, keyPrefix: `${this.prefix}rl:${bucket}`, points, duration });
      this.limiters.set(id, l);
    }
    return l;
  }

  /**
   * Per-caller limit for a keyless call or a cheap/abuse-limited endpoint; `caller` is the
   * client IP, or the key for keyed calls to cheap endpoints. Null when the route is unlimited.
   */
  async consumeByIp(name: LimitName, caller: string): Promise<RateState | null> {
    const rule = name === 'cheap' ? { points: this.cheapPerMinute, seconds: 60 } : (keylessLimits[name] ?? ipLimits[name]);
    if (!rule) return null;
    const what = keylessLimits[name]
      ? `the keyless limit for ${name} (${describe(rule.points, rule.seconds)} per IP) was reached; create a free key with POST /api/keys for higher limits`
      : `the limit for this endpoint (${describe(rule.points, rule.seconds)}) was reached`;
    return this.consume(this.limiter(`ip:${name}`, rule.points, rule.seconds), caller, what);
  }

  /** Tier quota (per minute, per day) plus any per-key extra limit of the route. */
  async consumeByKey(key: KeyRecord, name: LimitName, daily: number): Promise<RateState> {
    const extra = perKeyExtra[name];
    const states: RateState[] = [];
    if (extra) {
      states.push(
        await this.consume(this.limiter(`key:${name}`, extra.points, extra.seconds), key.hash,
          `the ${name} limit of ${describe(extra.points, extra.seconds)} per key was reached`),
      );
    }
    const perMinute = tierQuotas[key.tier].perMinute;
    states.push(
      await this.consume(this.limiter('key:minute', perMinute, 60), key.hash,
        `the per-minute limit of ${perMinute} requests for the ${key.tier} tier was reached`),
    );
    states.push(
      await this.consume(this.limiter('key:day', daily, DAY), key.hash,
        `the daily limit of ${daily} requests for this key was reached`),
    );
    return states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  }

  /** The Redis key counting a key's calls in its current 24-hour window (read by /api/usage with one MGET). */
  dailyCountKey(key: KeyRecord, daily: number): string {
    return this.limiter('key:day', daily, DAY).getKey(key.hash);
  }

  private async consume(l: RateLimiterRedis, id: string, message: string): Promise<RateState> {
    try {
      const res = await l.consume(id);
      return { limit: l.points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retry = Math.ceil(err.msBeforeNext / 1000);
      const e = tooMany(message, retry);
      Object.assign(e.headers, rateHeaders({ limit: l.points, remaining: 0, resetSeconds: retry }));
      throw e;
    }
  }
}

export function rateHeaders(s: RateState): Record<string, string> {
  return {
    'RateLimit-Limit': String(s.limit),
    'RateLimit-Remaining': String(Math.max(0, s.remaining)),
    'RateLimit-Reset': String(Math.max(0, s.resetSeconds)),
  };
}

function describe(points: number, seconds: number): string {
  const unit =
    seconds % 3600 === 0 ? (seconds === 3600 ? 'hour' : `${seconds / 3600} hours`)
      : seconds % 60 === 0 ? (seconds === 60 ? 'minute' : `${seconds / 60} minutes`)
        : `${seconds} seconds`;
  return `${points} per ${unit}`;
}
