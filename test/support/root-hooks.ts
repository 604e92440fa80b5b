import { connectRedis, type RedisHandle } from '../../server/store/redis.js';

let embedded: RedisHandle | undefined;

/**
 * Root hooks for the whole run: one Redis for every test file. An explicit REDIS_URL or
 * a server on 127.0.0.1:6379 is used as is; otherwise one private redis-server is
 * started (the same code path as `npm start`) and stopped at the end.
 */
export const mochaHooks = {
  async beforeAll() {
    if (process.env.TEST_REDIS_URL || process.env.REDIS_URL) return;
    embedded = await connectRedis({ dataDir: './data/redis-test' });
    const c = embedded.connection;
    process.env.TEST_REDIS_URL = c.path ? `unix:${c.path}` : `redis://${c.host}:${c.port}`;
  },
  async afterAll() {
    await embedded?.close();
  },
};
