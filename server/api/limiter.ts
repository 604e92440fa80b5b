import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { OverLimitError } from '../errors/index.js';
import { ipLimits, keylessLimits, perKeyExtra, type LimitName } from './limit-rules.js';
import type { KeyRecord } from '../keys/key-store.js';
import type { Logger } from '../log.js';
import { moreQuotaHint, tierQuotas } from '../keys/tiers.js';

/** What the RateLimit-* headers report: the window closest to running out. */
export interface RateState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

const DAY = 24 * 60 * 60;

/** One counting window and what its 429 says. */
interface LimitWindow {
  limiter: RateLimiterRedis;
  message: string;
  /** How to get more, appended to the 429's message. */
  more?: string;
}

/**
 * All request limits, kept in Redis by rate-limiter-flexible so every process that
 * shares the Redis shares the counts (its consume is one atomic script).
 */
export class Limiter {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  private readonly cheapPerMinute: number;
  private readonly log: Logger;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    options: {
      /** Calls per minute per caller to the cheap endpoints. @default 600 */
      cheapPerMinute?: number;
      /** Where a refund that could not be made is reported. */
      log: Logger;
    },
  ) {
    this.cheapPerMinute = options.cheapPerMinute ?? 600;
    this.log = options.log;
  }

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
    const window = this.ipWindow(name);
    return window ? this.consume(window.limiter, caller, window.message, window.more) : null;
  }

  /** Gives a keyless (or cheap) call back, as if it had not been made (its target was refused). */
  async giveBackByIp(name: LimitName, caller: string): Promise<void> {
    await this.ipWindow(name)?.limiter.reward(caller, 1);
  }

  /**
   * Tier quota (per minute, per day) plus any per-key extra limit of the route. The windows
   * are consumed at once (their scripts leave in one write, one round trip instead of one
   * each); when one refuses, the others that counted the call get it back, so a refused call
   * counts only where it was refused, as when they were asked one after another. `points`: the
   * requests one call counts as (a comparison counts one per side and check). @default 1
   */
  async consumeByKey(key: KeyRecord, name: LimitName, daily: number, points = 1): Promise<RateState> {
    const windows = this.keyWindows(key, name, daily);
    const settled = await Promise.allSettled(windows.map((w) => this.consume(w.limiter, key.hash, w.message, w.more, points)));
    const refused = settled.findIndex((r) => r.status === 'rejected');
    if (refused >= 0) {
      // Windows after the first refusal would not have been asked: they give the call back
      // (a window over its limit counted it too). A refund that fails does not change the
      // answer (the 429), but the key is then short of calls it never made: say so.
      const refunds = await Promise.allSettled(windows.map((w, i) => (i > refused ? w.limiter.reward(key.hash, points) : undefined)));
      for (const r of refunds) {
        if (r.status === 'rejected') this.log.warn({ err: r.reason, key: key.id, limit: name, points }, 'a refused call could not be given back: the key counts calls it did not make until its window resets');
      }
      throw (settled[refused] as PromiseRejectedResult).reason;
    }
    const states = settled.map((r) => (r as PromiseFulfilledResult<RateState>).value);
    return states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  }

  /** Gives a counted call back to every window of the key (its target was refused). */
  async giveBackByKey(key: KeyRecord, name: LimitName, daily: number, points = 1): Promise<void> {
    await Promise.all(this.keyWindows(key, name, daily).map((w) => w.limiter.reward(key.hash, points)));
  }

  private ipWindow(name: LimitName): LimitWindow | undefined {
    const rule = name === 'cheap' ? { points: this.cheapPerMinute, seconds: 60 } : (keylessLimits[name] ?? ipLimits[name]);
    if (!rule) return undefined;
    return {
      limiter: this.limiter(`ip:${name}`, rule.points, rule.seconds),
      message: keylessLimits[name]
        ? `the keyless limit for ${name} (${describe(rule.points, rule.seconds)} per IP) was reached`
        : `the limit for this endpoint (${describe(rule.points, rule.seconds)}) was reached`,
      more: keylessLimits[name] ? 'or create a free key with POST /api/keys for higher limits' : undefined,
    };
  }

  private keyWindows(key: KeyRecord, name: LimitName, daily: number): LimitWindow[] {
    const extra = perKeyExtra[name];
    const perMinute = tierQuotas[key.tier].perMinute;
    const windows: LimitWindow[] = [];
    if (extra) {
      windows.push({ limiter: this.limiter(`key:${name}`, extra.points, extra.seconds), message: `the ${name} limit of ${describe(extra.points, extra.seconds)} per key was reached`, more: 'or send more URLs per request' });
    }
    windows.push({ limiter: this.limiter('key:minute', perMinute, 60), message: `the per-minute limit of ${perMinute} requests for the ${key.tier} tier was reached`, more: moreQuotaHint(key.tier, key.verified, 'perMinute') });
    windows.push({ limiter: this.limiter('key:day', daily, DAY), message: `the daily limit of ${daily} requests for this key was reached`, more: moreQuotaHint(key.tier, key.verified, 'perDay') });
    return windows;
  }

  /** The Redis key counting a key's calls in its current 24-hour window (read by /api/usage with one MGET). */
  dailyCountKey(key: KeyRecord, daily: number): string {
    return this.limiter('key:day', daily, DAY).getKey(key.hash);
  }

  /** Counts `points` calls; over the limit, a 429 saying when to retry and, with `more`, how to get more. */
  private async consume(l: RateLimiterRedis, id: string, message: string, more?: string, points = 1): Promise<RateState> {
    try {
      const res = await l.consume(id, points);
      return { limit: l.points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retry = Math.ceil(err.msBeforeNext / 1000);
      const when = `retry in ${describeWait(retry)}`;
      throw new OverLimitError(`${message}; ${more ? `${when}, ${more}` : when}`, retry, rateHeaders({ limit: l.points, remaining: 0, resetSeconds: retry }));
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

/** `42 s`, `12 min`, `3 h 5 min`. */
function describeWait(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
