import { Queue, type ConnectionOptions } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import { timeBound } from '../time-bounds.js';

/** How long a call waits for a new queue's set-up after the old one's failed. */
const FRESH_SET_UP_MS = 2_000;

/**
 * A BullMQ queue for adding and reading jobs that outlives a failed set-up. BullMQ sets a
 * queue's connection up once (connect, then INFO for Redis's version) and keeps that promise
 * for the queue's life: a set-up that failed (Redis away or too slow for the command timeout
 * when it ran, as after a restart under load) fails every later call at once, with the same
 * error, long after Redis is back. Such a queue is replaced; the call that found it fails
 * (503) and the next one uses the new queue.
 */
export class ProducerQueue<D> {
  /** Undefined once a set-up failed: the next call makes a new queue (not at once: Redis may still be away). */
  private current: Queue<D> | undefined;

  constructor(
    private readonly name: string,
    /** Producer options: no offline queue, so a request fails fast while Redis is away. */
    private readonly connection: RedisOptions,
    private readonly prefix: string,
  ) {
    this.current = this.make();
  }

  /**
   * The queue once its connection is set up. A queue whose set-up failed is dropped and one
   * new queue tried in the same call (a set-up that failed in a slow moment usually succeeds
   * now); when that one is not ready within FRESH_SET_UP_MS either, the call fails.
   */
  async ready(): Promise<Queue<D>> {
    const queue = (this.current ??= this.make());
    try {
      await queue.waitUntilReady();
      return queue;
    } catch (err) {
      this.drop(queue);
      const fresh = (this.current ??= this.make());
      const ok = await timeBound(fresh.waitUntilReady().then(() => true, () => false), FRESH_SET_UP_MS);
      if (ok) return fresh;
      if (ok === false) this.drop(fresh);
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.current?.close();
  }

  private drop(queue: Queue<D>): void {
    if (this.current !== queue) return;
    this.current = undefined;
    void queue.close().catch(() => undefined); // its connection is the broken one
  }

  private make(): Queue<D> {
    const queue = new Queue<D>(this.name, { connection: this.connection as ConnectionOptions, prefix: `${this.prefix}bull` });
    // Errors reach the callers of each command; the event only reports reconnects.
    queue.on('error', () => undefined);
    return queue;
  }
}
