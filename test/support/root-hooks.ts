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
    failIfStillRunning();
  },
};

/** How long after the last test the process may take to let go of its handles (closing sockets, child processes exiting). */
const GRACE_MS = 5_000;

/**
 * Without `exit: true` mocha ends when nothing is left to run; a server, socket, timer or
 * child process a test left open would keep it running for ever. This names what is still
 * open after the grace period and fails the run instead.
 */
function failIfStillRunning() {
  const check = setTimeout(() => {
    const open = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
    console.error(`\nThe test run left handles open ${GRACE_MS} ms after the last test: ${open.join(', ')}`);
    process.exit(1);
  }, GRACE_MS);
  check.unref(); // does not itself keep the process alive
}
