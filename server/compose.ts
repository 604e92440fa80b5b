import { createApp } from './api/app.js';
import type { AppDeps } from './api/deps.js';
import { Limiter } from './api/limiter.js';
import { createMetrics } from './api/metrics.js';
import type { Config } from './config.js';
import { KeyStore } from './keys/key-store.js';
import { createMailer } from './keys/mailer.js';
import { createLogger, type Logger } from './log.js';
import { createSafeHttp } from './net/safe-http.js';
import { createTargetPolicy } from './net/target-policy.js';
import { connectRedis, type RedisHandle } from './store/redis.js';

export interface Service {
  deps: AppDeps;
  redisHandle: RedisHandle;
  /** Closes everything this service opened, in reverse order. */
  close(): Promise<void>;
}

/**
 * The composition root's parts: every long-lived resource is built here, once, and
 * passed down. `main.ts` and the tests both use it.
 */
export async function composeService(config: Config, opts: { log?: Logger } = {}): Promise<Service> {
  const log = opts.log ?? createLogger(config.LOG_LEVEL);
  const redisHandle = await connectRedis({ url: config.REDIS_URL, dataDir: config.REDIS_DATA_DIR });
  const { redis } = redisHandle;
  redis.on('error', (err) => log.warn({ err: err.message }, 'redis connection error'));
  const policy = createTargetPolicy(config.ALLOW_PRIVATE_TARGETS);
  const http = createSafeHttp({ policy, connectTimeoutMs: Math.min(config.FETCH_TIMEOUT_MS, 10_000) });
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log });
  const deps: AppDeps = {
    config,
    redis,
    log,
    metrics: createMetrics(),
    http,
    keys: new KeyStore(redis, config.REDIS_PREFIX),
    limiter: new Limiter(redis, config.REDIS_PREFIX),
    mailer,
    startedAt: Date.now(),
  };
  const closers: Array<() => Promise<void> | void> = [() => redisHandle.close(), () => http.close(), () => mailer.close()];
  return {
    deps,
    redisHandle,
    async close() {
      for (const close of closers.reverse()) {
        await Promise.resolve(close()).catch((err) => log.warn({ err }, 'error while closing'));
      }
    },
  };
}

export { createApp };
