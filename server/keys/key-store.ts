import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ReplicaWait } from '../store/replica-wait.js';
import { type KeyStatus, type Tier, dailyLimit, keyStatuses, tierNames, PERIOD_DAYS } from './tiers.js';

/** A key as stored; the plain key itself is never stored, only its SHA-256. */
export interface KeyRecord {
  /** Short non-secret id (first 12 hex chars of the hash), safe for logs. */
  id: string;
  hash: string;
  tier: Tier;
  status: KeyStatus;
  verified: boolean;
  email: string | null;
  created_at: string;
  /** Standard Webhooks signing secret (`whsec_…`) for this key's webhooks. */
  webhook_secret: string;
}

export const VERIFY_TOKEN_TTL_SECONDS = 24 * 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;

export const hashKey = (plain: string) => crypto.createHash('sha256').update(plain).digest('hex');

/**
 * Keys, verification tokens and 30-day period counters in Redis.
 *
 * Key records are also kept in process for `cacheMs` (default 2 s): every request looks its
 * key up, and the round trip was a third of a keyed request's time. A change made here
 * (verify, operator update) shows at once in this process and within `cacheMs` in others.
 */
export class KeyStore {
  private readonly cache = new Map<string, { record: KeyRecord; until: number }>();

  private readonly cacheMs: number;
  private readonly replicated: ReplicaWait;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    opts: {
      /** How long a key record is kept in process. @default 2000 */
      cacheMs?: number;
      /** Key writes stand on the replicas before they are acknowledged. @default none */
      replicated?: ReplicaWait;
    } = {},
  ) {
    this.cacheMs = opts.cacheMs ?? 2_000;
    this.replicated = opts.replicated ?? (async () => undefined);
  }

  private k = (...parts: string[]) => `${this.prefix}${parts.join(':')}`;

  /**
   * Creates a key; returns the plain key (shown once) and, for email keys, a verification token.
   * `vouched`: the operator creates it and vouches for the address, so it is verified and
   * active at once, without a token.
   */
  async create(email?: string, { vouched = false }: { vouched?: boolean } = {}): Promise<{ plain: string; record: KeyRecord; token?: string }> {
    const plain = `sl_${crypto.randomBytes(24).toString('base64url')}`;
    const hash = hashKey(plain);
    const awaitsMail = !!email && !vouched;
    const record: KeyRecord = {
      id: hash.slice(0, 12),
      hash,
      tier: 'free',
      status: awaitsMail ? 'inactive' : 'active',
      verified: !!email && vouched,
      email: email ?? null,
      created_at: new Date().toISOString(),
      webhook_secret: `whsec_${crypto.randomBytes(24).toString('base64')}`,
    };
    const multi = this.redis.multi().hset(this.k('key', hash), serialize(record));
    let token: string | undefined;
    if (awaitsMail) {
      token = crypto.randomBytes(24).toString('base64url');
      multi.set(this.k('verify', token), hash, 'EX', VERIFY_TOKEN_TTL_SECONDS);
    }
    await multi.exec();
    await this.replicated(this.redis);
    return { plain, record, token };
  }

  async findByPlain(plain: string): Promise<KeyRecord | null> {
    return this.findByHash(hashKey(plain));
  }

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const hit = this.cache.get(hash);
    if (hit && hit.until > Date.now()) return hit.record;
    const raw = await this.redis.hgetall(this.k('key', hash));
    if (!raw.hash) {
      this.cache.delete(hash);
      return null;
    }
    const record = deserialize(raw);
    if (this.cache.size >= 10_000) this.cache.delete(this.cache.keys().next().value as string); // oldest first
    this.cache.set(hash, { record, until: Date.now() + this.cacheMs });
    return record;
  }

  /** Uses a verification token once; returns the activated key or null when unknown/expired. */
  async verify(token: string): Promise<KeyRecord | null> {
    const hash = await this.redis.getdel(this.k('verify', token));
    if (!hash) return null;
    this.cache.delete(hash);
    const record = await this.findByHash(hash);
    if (!record) return null;
    if (record.status === 'suspended') return record;
    await this.redis.hset(this.k('key', hash), { status: 'active', verified: '1' });
    await this.replicated(this.redis);
    this.cache.delete(hash);
    return { ...record, status: 'active', verified: true };
  }

  /**
   * Operator changes; a paid tier also marks the key verified (DESIGN.md), which activates an
   * email key that was only waiting for its verification.
   */
  async update(hash: string, change: { tier?: Tier; status?: KeyStatus }): Promise<KeyRecord | null> {
    this.cache.delete(hash);
    const record = await this.findByHash(hash);
    if (!record) return null;
    const next: KeyRecord = { ...record, ...change };
    if (change.tier && change.tier !== 'free') next.verified = true;
    if (next.verified && !record.verified && next.status === 'inactive') next.status = 'active';
    await this.redis.hset(this.k('key', hash), serialize(next));
    await this.replicated(this.redis);
    this.cache.delete(hash);
    return next;
  }

  /**
   * Lifts a suspension. An email key whose address was never verified goes back to waiting
   * for its link (`inactive`): activating it would skip the verification. Null when unknown.
   */
  async unsuspend(hash: string): Promise<KeyRecord | null> {
    const record = await this.findByHash(hash);
    if (!record) return null;
    return this.update(hash, { status: record.email && !record.verified ? 'inactive' : 'active' });
  }

  /** Every key record, oldest first (an operator's listing; SCAN, so Redis is not blocked). */
  async list(): Promise<KeyRecord[]> {
    const records: KeyRecord[] = [];
    const match = this.k('key', '*');
    let cursor = '0';
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
      const rows = await Promise.all(found.map((k) => this.redis.hgetall(k)));
      for (const raw of rows) if (raw.hash) records.push(deserialize(raw));
      cursor = next;
    } while (cursor !== '0');
    return records.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /** Index and bounds of the 30-day usage period `now` falls in, counted from key creation. */
  period(record: KeyRecord, now = Date.now()) {
    const start0 = Date.parse(record.created_at);
    const len = PERIOD_DAYS * DAY_MS;
    const index = Math.max(0, Math.floor((now - start0) / len));
    return { index, start: new Date(start0 + index * len), end: new Date(start0 + (index + 1) * len) };
  }

  /** Counts `calls` requests in the key's current period (a comparison is one per side and check). @default 1 */
  async countCall(record: KeyRecord, calls = 1): Promise<void> {
    const key = this.periodKey(record);
    await this.redis.multi().incrby(key, calls).expire(key, PERIOD_DAYS * 2 * 24 * 3600).exec();
  }

  /** Takes back a call counted with `countCall` (counted at the same time as the limits, which then refused it). */
  async uncountCall(record: KeyRecord, calls = 1): Promise<void> {
    await this.redis.decrby(this.periodKey(record), calls);
  }

  /** The Redis key counting the calls of the current 30-day period. */
  periodKey(record: KeyRecord): string {
    return this.k('period', record.hash, String(this.period(record).index));
  }

  async callsThisPeriod(record: KeyRecord): Promise<number> {
    return Number((await this.redis.get(this.periodKey(record))) ?? 0);
  }

  dailyLimit(record: KeyRecord): number {
    return dailyLimit(record.tier, record.verified);
  }
}

function serialize(r: KeyRecord): Record<string, string> {
  return {
    id: r.id,
    hash: r.hash,
    tier: r.tier,
    status: r.status,
    verified: r.verified ? '1' : '0',
    email: r.email ?? '',
    created_at: r.created_at,
    webhook_secret: r.webhook_secret,
  };
}

function deserialize(raw: Record<string, string>): KeyRecord {
  return {
    id: raw.id,
    hash: raw.hash,
    tier: (tierNames as readonly string[]).includes(raw.tier) ? (raw.tier as Tier) : 'free',
    status: (keyStatuses as readonly string[]).includes(raw.status) ? (raw.status as KeyStatus) : 'inactive',
    verified: raw.verified === '1',
    email: raw.email || null,
    created_at: raw.created_at,
    webhook_secret: raw.webhook_secret,
  };
}
