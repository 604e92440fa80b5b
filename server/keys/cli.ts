import { createConfig } from '../config.js';
import { connectRedis } from '../store/redis.js';
import { hashKey, KeyStore } from './key-store.js';
import { tierNames, type Tier } from './tiers.js';

const usage = `usage: npm run keys -- <command> <key>
  show KEY              print the key's record and usage
  set-tier KEY TIER     TIER: ${tierNames.join(', ')} (a paid tier also marks the key verified)
  suspend KEY           refuse every request made with the key (403)
  activate KEY          make the key active again
KEY is the plain key (sl_…), its SHA-256, or its 12-character id from the logs.`;

/** Operator command: changes a key's tier or status in the service's Redis. */
async function main(argv: string[]) {
  const [command, ref, arg] = argv;
  if (!command || !ref || !['show', 'set-tier', 'suspend', 'activate'].includes(command)) {
    console.error(usage);
    return 2;
  }
  const config = createConfig(process.env);
  const handle = await connectRedis({ url: config.REDIS_URL, dataDir: config.REDIS_DATA_DIR });
  try {
    const store = new KeyStore(handle.redis, config.REDIS_PREFIX);
    const hash = await resolveHash(ref, handle.redis, config.REDIS_PREFIX);
    const record = hash ? await store.findByHash(hash) : null;
    if (!hash || !record) {
      console.error(`no key matches ${ref}`);
      return 1;
    }
    let next = record;
    if (command === 'set-tier') {
      if (!(tierNames as readonly string[]).includes(arg ?? '')) {
        console.error(`TIER must be one of ${tierNames.join(', ')}`);
        return 2;
      }
      next = (await store.update(hash, { tier: arg as Tier }))!;
    } else if (command === 'suspend') {
      next = (await store.update(hash, { status: 'suspended' }))!;
    } else if (command === 'activate') {
      next = (await store.update(hash, { status: 'active' }))!;
    }
    const { hash: _h, webhook_secret: _s, ...shown } = next;
    console.log(JSON.stringify({ ...shown, daily_limit: store.dailyLimit(next), calls_this_period: await store.callsThisPeriod(next) }, null, 2));
    return 0;
  } finally {
    await handle.close();
  }
}

async function resolveHash(ref: string, redis: import('ioredis').Redis, prefix: string): Promise<string | null> {
  if (/^[0-9a-f]{64}$/.test(ref)) return ref;
  if (/^[0-9a-f]{12}$/.test(ref)) {
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}key:${ref}*`, 'COUNT', 1000);
      if (found[0]) return found[0].slice(`${prefix}key:`.length);
      cursor = next;
    } while (cursor !== '0');
    return null;
  }
  return hashKey(ref);
}

process.exitCode = await main(process.argv.slice(2));
