import { Redis } from 'ioredis';
import { parseArgs } from 'node:util';
import { createConfig, type Config } from '../config.js';
import { connectOptionsOf, embeddedSocketPath, locateRedis } from '../store/redis.js';
import { createReplicaWait } from '../store/replica-wait.js';
import { hashKey, KeyStore, type KeyRecord } from './key-store.js';
import { tierNames, type Tier } from './tiers.js';

const usage = `usage: npm run keys -- <command> [arguments]
  create [--tier TIER] [--email EMAIL]   a new active key (shown once); with EMAIL, the address is
                                         taken as verified (you vouch for it), so free gives 50 a day
  list                                   every key: id, tier, status, email, calls this period
  show KEY                               the key's record and usage
  set-tier KEY TIER                      a paid tier also marks the key verified (and active when
                                         it was only waiting for its e-mail verification)
  suspend KEY                            refuse every request made with the key (403)
  activate KEY                           lift a suspension (an e-mail key never verified goes back
                                         to waiting for its link)
TIER: ${tierNames.join(', ')}. KEY: the plain key (sl_…), its SHA-256, or its 12-character id
from the logs. Run it with the service's REDIS_URL and REDIS_PREFIX.`;

/** A failure the operator can act on: one line on stderr, and the exit code. */
class CommandError extends Error {
  constructor(message: string, readonly code = 1) {
    super(message);
  }
}

/** Operator command: creates and lists keys, changes a key's tier or status, in the service's Redis. */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = operatorInput(() =>
    parseArgs({ args: argv, allowPositionals: true, options: { tier: { type: 'string' }, email: { type: 'string' } } }),
  );
  const [command, ref, arg] = positionals;
  const needsKey = ['show', 'set-tier', 'suspend', 'activate'];
  if (!command || ![...needsKey, 'create', 'list'].includes(command) || (needsKey.includes(command) && !ref)) {
    throw new CommandError(usage, 2);
  }
  const config = operatorInput(() => createConfig(process.env));
  const redis = await connect(config);
  try {
    const store = new KeyStore(redis, config.REDIS_PREFIX, { cacheMs: 0, replicated: createReplicaWait({ replicas: config.REDIS_WAIT_REPLICAS, timeoutMs: config.REDIS_WAIT_TIMEOUT_MS }) });
    if (command === 'create') return await print(await create(store, values.tier, values.email), store);
    if (command === 'list') return await list(store, redis);
    const hash = await resolveHash(ref, redis, config.REDIS_PREFIX);
    const record = hash ? await store.findByHash(hash) : null;
    if (!hash || !record) throw new CommandError(`no key matches ${ref}`);
    if (command === 'set-tier') return await print(await store.update(hash, { tier: tierArg(arg) }), store);
    if (command === 'suspend') return await print(await store.update(hash, { status: 'suspended' }), store);
    if (command === 'activate') {
      if (record.status === 'inactive') {
        throw new CommandError(
          `key ${record.id} is not suspended: it waits for the verification link mailed to ${record.email ?? 'its address'}, ` +
            'and becomes active when that link is opened (a paid tier, set-tier KEY pro, marks it verified and active)',
        );
      }
      return await print(await store.unsuspend(hash), store);
    }
    return await print(record, store);
  } finally {
    redis.disconnect();
  }
}

/** Bad arguments and settings are the operator's to fix: their message, as a CommandError. */
function operatorInput<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new CommandError((err as Error).message, 2);
  }
}

async function create(store: KeyStore, tier: string | undefined, email: string | undefined) {
  if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new CommandError(`--email must be an e-mail address, got ${JSON.stringify(email)}`, 2);
  const chosen = tier === undefined ? 'free' : tierArg(tier);
  const { plain, record } = await store.create(email, { vouched: true });
  const next = chosen === 'free' ? record : await store.update(record.hash, { tier: chosen });
  return next && { api_key: plain, ...next };
}

function tierArg(tier: string | undefined): Tier {
  if (!(tierNames as readonly string[]).includes(tier ?? '')) throw new CommandError(`TIER must be one of ${tierNames.join(', ')}, got ${JSON.stringify(tier ?? '')}`, 2);
  return tier as Tier;
}

/** The record as JSON, without its hash; a new key's secret parts are shown this once. */
async function print(record: (KeyRecord & { api_key?: string }) | null, store: KeyStore): Promise<number> {
  if (!record) throw new CommandError('the key vanished while it was changed; run the command again');
  const { hash: _hash, webhook_secret, api_key, ...shown } = record;
  const secrets = api_key ? { api_key, webhook_secret } : {};
  const usage = { daily_limit: store.dailyLimit(record), calls_this_period: await store.callsThisPeriod(record) };
  process.stdout.write(`${JSON.stringify({ ...secrets, ...shown, ...usage }, null, 2)}\n`);
  return 0;
}

async function list(store: KeyStore, redis: Redis): Promise<number> {
  const records = await store.list();
  const calls = records.length ? await redis.mget(records.map((r) => store.periodKey(r))) : [];
  const rows = [
    ['id', 'tier', 'status', 'verified', 'daily', 'calls', 'created', 'email'],
    ...records.map((r, i) => [r.id, r.tier, r.status, r.verified ? 'yes' : 'no', String(store.dailyLimit(r)), calls[i] ?? '0', r.created_at.slice(0, 19), r.email ?? '']),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  for (const row of rows) process.stdout.write(`${row.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd()}\n`);
  process.stdout.write(`${records.length} key${records.length === 1 ? '' : 's'}\n`);
  return 0;
}

/**
 * The service's Redis: its Sentinels' primary, REDIS_URL, else the one on 127.0.0.1:6379, else
 * a running service's embedded server (its socket). Never starts one: keys made there would be
 * lost to the service.
 */
async function connect(config: Config): Promise<Redis> {
  const socket = embeddedSocketPath(config.REDIS_DATA_DIR);
  const { where, label } = (await locateRedis(connectOptionsOf(config))) ?? { where: { path: socket }, label: `the embedded redis-server's socket ${socket}` };
  const redis = new Redis({ ...where, lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  let cause: Error | undefined;
  redis.on('error', (err: Error) => (cause ??= err)); // the socket's error, which connect() reports only as "Connection is closed"
  try {
    await redis.connect();
    return redis;
  } catch (err) {
    redis.disconnect();
    throw new CommandError(`cannot reach Redis at ${label} (${(cause ?? (err as Error)).message}); start the service first, or set REDIS_URL to the service's`);
  }
}

async function resolveHash(ref: string, redis: Redis, prefix: string): Promise<string | null> {
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

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof CommandError)) throw err; // our own bug: its stack
  process.stderr.write(`${err.message.trimEnd()}\n`);
  process.exitCode = err.code;
}
