import { expect } from 'chai';
import http from 'node:http';
import { Redis } from 'ioredis';
import { ScreenshotJobs } from '../../server/jobs/screenshot-job.js';
import { optionsFromUrl } from '../../server/store/redis.js';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { keyMaker } from './support/keys.js';
import { baseEnv, sharedRedisUrl as redisUrl, spawnService, stopService, type ServiceProcess } from './support/service-process.js';
import { until } from '../support/wait.js';

interface Outcome {
  status?: number;
  connection?: string;
  error?: string;
  afterSignal: boolean;
}

/** GET over a keep-alive agent; a reused socket the server closed as it went idle is retried once, as Node's docs advise. */
function get(agent: http.Agent, url: string, headers: Record<string, string> = {}, retried = false): Promise<{ status: number; connection: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: String(res.headers.connection) }));
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) resolve(get(agent, url, headers, true));
      else reject(err);
    });
  });
}

describe('faults: graceful shutdown', function () {
  this.timeout(120_000);
  let site: FixtureServer;
  let held: Array<() => void> = [];
  let holding = true;

  before(async () => {
    site = await serve({
      '/held': (_req, res) => {
        const answer = () => res.writeHead(200, { 'content-type': 'text/html' }).end('<body style="background:#0a0">done</body>');
        if (holding) held.push(answer);
        else answer();
      },
    });
  });
  beforeEach(() => (holding = true));
  afterEach(() => {
    holding = false;
    for (const release of held.splice(0)) release();
  });
  after(() => site.close());

  it('an API process, on SIGTERM under keep-alive load, finishes in-flight requests with Connection: close, then exits 0', async () => {
    const env = baseEnv(redisUrl(), { CHEAP_LIMIT_PER_MINUTE: '1000000' });
    const api = await spawnService('api', env);
    const keys = await keyMaker(redisUrl(), env.REDIS_PREFIX);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: Outcome[] = [];
    let signalled = false;
    let stopLoops = false;
    try {
      const { key } = await keys.newKey('business');
      const loop = async () => {
        while (!stopLoops) {
          const afterSignal = signalled;
          try {
            const r = await get(agent, `${api.url}/api/health`);
            outcomes.push({ ...r, afterSignal });
          } catch (err) {
            outcomes.push({ error: (err as NodeJS.ErrnoException).code ?? String(err), afterSignal });
            if (signalled) return; // the server is gone: this caller stops
          }
        }
      };
      const loops = Array.from({ length: 4 }, loop);
      await until('keep-alive traffic', () => (outcomes.length > 40 ? true : undefined));

      const slow = get(agent, `${api.url}/api/screenshot?url=${encodeURIComponent(`${site.url}/held`)}&full_page=false`, { 'X-API-Key': key });
      await until('the render to reach the site', () => (held.length ? true : undefined));
      signalled = true;
      api.kill('SIGTERM');
      await until('the drain to start', () => (api.output().includes('shutting down') ? true : undefined));
      holding = false;
      for (const release of held.splice(0)) release();

      const inFlight = await slow;
      expect(inFlight.status).to.equal(200);
      expect(inFlight.connection).to.equal('close');
      expect(await api.exited).to.equal(0);
      stopLoops = true;
      await Promise.all(loops);

      const answered = outcomes.filter((o) => o.status !== undefined);
      const bad = answered.filter((o) => o.status !== 200);
      expect(bad.length, `every answered request is a 200: ${JSON.stringify(bad.slice(0, 3))}`).to.equal(0);
      const late = answered.filter((o) => o.afterSignal);
      expect(late.every((o) => o.connection === 'close'), 'answers after SIGTERM close their connection').to.equal(true);
      // After the signal a new connection is refused, or reset when the kernel had queued it as the listener closed.
      const errors = outcomes.filter((o) => o.error);
      expect(errors.every((o) => o.afterSignal && ['ECONNREFUSED', 'ECONNRESET'].includes(o.error ?? '')), JSON.stringify(errors)).to.equal(true);
    } finally {
      stopLoops = true;
      agent.destroy();
      await keys.close();
      await stopService(api);
    }
  });

  it('an API process, with a request that never ends still running at the end of SHUTDOWN_DRAIN_MS, cuts it and exits 0', async () => {
    const env = baseEnv(redisUrl(), { SHUTDOWN_DRAIN_MS: '1500' });
    const api = await spawnService('api', env);
    const keys = await keyMaker(redisUrl(), env.REDIS_PREFIX);
    try {
      const { key } = await keys.newKey('business');
      const stuck = fetch(`${api.url}/api/screenshot?url=${encodeURIComponent(`${site.url}/held`)}`, { headers: { 'X-API-Key': key } }).then(
        (r) => r.status,
        (err: Error) => err.name,
      );
      await until('the render to reach the site', () => (held.length ? true : undefined));
      api.kill('SIGTERM');
      // The page is held until the test ends: only the drain's end lets the process go, and 0 says it did not overrun.
      expect(await api.exited).to.equal(0);
      expect(api.output()).to.include('requests still running at the end of the drain were cut');
      expect(await stuck).to.equal('TypeError'); // fetch failed: the connection was cut
    } finally {
      await keys.close();
      await stopService(api);
    }
  });

  it('a worker process, on SIGTERM with a job past the drain, hands the job back so another worker completes it at once', async () => {
    // Locks far longer than the test: only a hand-back lets the second worker take the job in time.
    const env = baseEnv(redisUrl(), { SHUTDOWN_DRAIN_MS: '1000', JOB_LOCK_MS: '120000', JOB_STALLED_INTERVAL_MS: '60000' });
    const first = await spawnService('worker', env);
    const redis = new Redis(optionsFromUrl(redisUrl()));
    const jobs = new ScreenshotJobs({ ...optionsFromUrl(redisUrl()), enableOfflineQueue: false }, redis, env.REDIS_PREFIX);
    let second: ServiceProcess | undefined;
    try {
      const id = await jobs.enqueue({ url: `${site.url}/held`, format: 'png', width: 400, height: 300, full_page: false, owner: 'nobody' });
      await until('the render to reach the site', () => (held.length ? true : undefined));
      first.kill('SIGTERM');
      expect(await first.exited).to.equal(0);
      expect(await (await jobs.queue()).getJobState(id)).to.equal('waiting');

      holding = false;
      second = await spawnService('worker', env);
      const state = await until('the job to complete', async () => {
        const s = await (await jobs.queue()).getJobState(id);
        return s === 'completed' || s === 'failed' ? s : undefined;
      }, 30_000);
      expect(state).to.equal('completed');
      expect(await jobs.outcome(id)).to.have.property('image').that.is.a('string');
    } finally {
      await stopService(first);
      await stopService(second);
      await jobs.close();
      await redis.quit();
    }
  });
});
