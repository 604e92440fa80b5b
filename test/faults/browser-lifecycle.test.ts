import { expect } from 'chai';
import { optionsFromUrl } from '../../server/store/redis.js';
import { ScreenshotJobs } from '../../server/jobs/screenshot-job.js';
import { Redis } from 'ioredis';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { browserGroupsOf, processesIn } from './support/chromium-processes.js';
import { keyMaker } from './support/keys.js';
import { baseEnv, sharedRedisUrl as redisUrl, spawnService, stopService } from './support/service-process.js';
import { until } from '../support/wait.js';

describe('faults: Chromium lives and dies with its process', function () {
  this.timeout(120_000);
  let site: FixtureServer;
  let held: Array<() => void> = [];

  before(async () => {
    site = await serve({
      '/': '<title>fine</title><body style="background:#0a0">fine</body>',
      // Answers only when the test lets it: the render is in flight until then.
      '/held': (_req, res) => void held.push(() => res.writeHead(200, { 'content-type': 'text/html' }).end('late')),
    });
  });
  afterEach(() => {
    for (const release of held.splice(0)) release();
  });
  after(() => site.close());

  it('a worker process, killed with SIGKILL mid-render, leaves no Chromium process behind', async () => {
    const env = baseEnv(redisUrl());
    const worker = await spawnService('worker', env);
    const redis = new Redis(optionsFromUrl(redisUrl()));
    const jobs = new ScreenshotJobs({ ...optionsFromUrl(redisUrl()), enableOfflineQueue: false }, redis, env.REDIS_PREFIX);
    try {
      await jobs.enqueue({ url: `${site.url}/held`, format: 'png', width: 800, height: 600, full_page: false, owner: 'nobody' });
      await until('the render to reach the site', () => (held.length ? true : undefined));
      const groups = browserGroupsOf(worker.pid);
      expect(groups, 'the worker runs a browser').to.have.length.greaterThan(0);
      expect(processesIn(groups).length).to.be.greaterThan(1);

      await stopService(worker, 'SIGKILL');

      const left = await until('the browser processes to go', () => (processesIn(groups).length === 0 ? [] : undefined), 20_000);
      expect(left).to.deep.equal([]);
    } finally {
      await stopService(worker);
      await jobs.close();
      await redis.quit();
    }
  });

  it('GET /api/screenshot, when Chromium dies mid-render, answers 503 "try again" and the next render succeeds on a fresh browser', async () => {
    const env = baseEnv(redisUrl());
    const api = await spawnService('api', env);
    const keys = await keyMaker(redisUrl(), env.REDIS_PREFIX);
    try {
      const { key } = await keys.newKey('pro');
      const headers = { 'X-API-Key': key };
      const shot = (path: string) => fetch(`${api.url}/api/screenshot?url=${encodeURIComponent(site.url + path)}&full_page=false`, { headers });

      const crashed = shot('/held');
      await until('the render to reach the site', () => (held.length ? true : undefined));
      const groups = browserGroupsOf(api.pid);
      expect(groups).to.have.length(1);
      process.kill(groups[0], 'SIGKILL'); // the browser's main process leads its group

      const res = await crashed;
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.match(/^\d+$/);
      expect((await res.json()).error).to.match(/browser stopped.*try again/);

      const next = await shot('/');
      expect(next.status).to.equal(200);
      expect(next.headers.get('content-type')).to.equal('image/png');
      const fresh = browserGroupsOf(api.pid);
      expect(fresh).to.have.length(1);
      expect(fresh[0]).to.not.equal(groups[0]);
    } finally {
      await keys.close();
      await stopService(api);
    }
  });
});
