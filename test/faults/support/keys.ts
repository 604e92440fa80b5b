import { Redis } from 'ioredis';
import { KeyStore } from '../../../server/keys/key-store.js';
import type { Tier } from '../../../server/keys/tiers.js';
import { optionsFromUrl } from '../../../server/store/redis.js';

/** Makes keys in a spawned service's store, as the operator's command would. */
export async function keyMaker(redisUrl: string, prefix: string) {
  const redis = new Redis(optionsFromUrl(redisUrl));
  const store = new KeyStore(redis, prefix);
  return {
    /** An active key of `tier` (paid tiers are verified, as `keys set-tier` makes them). */
    async newKey(tier: Tier = 'free'): Promise<{ key: string; secret: string }> {
      const { plain, record } = await store.create();
      if (tier !== 'free') await store.update(record.hash, { tier });
      return { key: plain, secret: record.webhook_secret };
    },
    close: () => redis.quit().then(() => undefined),
  };
}
