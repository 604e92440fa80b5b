import type { Redis } from 'ioredis';

export interface WebhookAttempt {
  attempt: number;
  at: string;
  /** The receiver's HTTP status; null when it could not be reached. */
  status: number | null;
  error: string | null;
}

/** `scheduled` → (`retrying` →)* `delivered` | `failed` (attempts used up, or 410 Gone). */
export type WebhookState = 'scheduled' | 'retrying' | 'delivered' | 'failed';

export interface WebhookStatus {
  state: WebhookState | null;
  delivered: boolean;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  attempts: WebhookAttempt[];
}

/** Each webhook delivery's record (state, last status, every attempt), kept as long as the job. */
export class WebhookLog {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  /** Marks the delivery scheduled, unless a re-run of the job finds it already under way. */
  async scheduled(jobId: string): Promise<void> {
    await this.redis.multi().hsetnx(this.key(jobId), 'state', 'scheduled').expire(this.key(jobId), this.ttlSeconds).exec();
  }

  /** Records one attempt; `retryAt` is when the next one runs, null when there is none. */
  async attempt(jobId: string, attempt: WebhookAttempt, retryAt: Date | null): Promise<void> {
    const delivered = attempt.error === null;
    const state: WebhookState = delivered ? 'delivered' : retryAt ? 'retrying' : 'failed';
    const list = this.listKey(jobId);
    await this.redis
      .multi()
      .rpush(list, JSON.stringify(attempt))
      .expire(list, this.ttlSeconds)
      .hset(this.key(jobId), {
        state,
        last_status: attempt.status === null ? '' : String(attempt.status),
        last_error: attempt.error ?? '',
        next_attempt_at: retryAt?.toISOString() ?? '',
      })
      .expire(this.key(jobId), this.ttlSeconds)
      .exec();
  }

  async status(jobId: string): Promise<WebhookStatus> {
    const [record, raw] = await Promise.all([this.redis.hgetall(this.key(jobId)), this.redis.lrange(this.listKey(jobId), 0, -1)]);
    const attempts = raw.map((r) => JSON.parse(r) as WebhookAttempt);
    return {
      state: (record.state as WebhookState | undefined) ?? null,
      delivered: record.state === 'delivered' || attempts.some((a) => a.error === null),
      last_status: record.last_status ? Number(record.last_status) : null,
      last_error: record.last_error || null,
      next_attempt_at: record.next_attempt_at || null,
      attempts,
    };
  }

  private key = (jobId: string) => `${this.prefix}webhook:${jobId}`;
  private listKey = (jobId: string) => `${this.prefix}webhook-attempts:${jobId}`;
}
