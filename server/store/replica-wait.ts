import type { Redis } from 'ioredis';
import { DependencyDownError } from '../errors/index.js';
import type { Logger } from '../log.js';

/**
 * Waits until the writes this client has sent stand on the replicas (Redis `WAIT`), so an
 * acknowledged key or queued job survives a failover to a replica. Redis replicates
 * asynchronously; without this, a primary lost right after a write can take the write with it.
 * Throws a 503 (DependencyDownError) when fewer replicas hold the write in time: the caller
 * tries again, rather than hold an acknowledgement a failover could void.
 */
export type ReplicaWait = (client: Pick<Redis, 'wait'>) => Promise<void>;

export interface ReplicaWaitOptions {
  /** Replicas that must hold the write; 0 waits for nothing. */
  replicas: number;
  /** Longest wait, below the connection's command timeout (a WAIT blocks its connection meanwhile). */
  timeoutMs: number;
  log?: Logger;
}

export function createReplicaWait(opts: ReplicaWaitOptions): ReplicaWait {
  if (opts.replicas === 0) return async () => undefined;
  let lastWarning = 0;
  return async (client) => {
    // WAIT covers every write sent before it on this connection, so it must be the writer's.
    const acknowledged = await client.wait(opts.replicas, opts.timeoutMs);
    if (acknowledged >= opts.replicas) return;
    if (Date.now() - lastWarning > 5_000) {
      lastWarning = Date.now();
      opts.log?.warn({ acknowledged, wanted: opts.replicas, timeoutMs: opts.timeoutMs }, 'fewer replicas than REDIS_WAIT_REPLICAS hold new writes; keys and jobs are refused (503) until they do');
    }
    throw new DependencyDownError('redis', 'the service store could not copy this to its replicas (Redis is failing over or a replica is down); retry in a few seconds', 2);
  };
}

/** A BullMQ queue's client as one that can send `WAIT` (its Redis backend hands out the ioredis connection itself). */
export function asWaitingClient(client: object): Pick<Redis, 'wait'> {
  if ('wait' in client && typeof client.wait === 'function') return client as Pick<Redis, 'wait'>;
  throw new TypeError('the queue connection cannot send WAIT; REDIS_WAIT_REPLICAS needs the Redis backend of BullMQ');
}
