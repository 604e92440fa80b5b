import { execFile, execSync } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { keyMaker } from './support/keys.js';
import { startOwnRedis, type OwnRedis } from './support/redis-server.js';
import { baseEnv, spawnService, stopService, type ServiceProcess } from './support/service-process.js';

const run = promisify(execFile);

describe('faults: the operator\'s fault drill (scripts/fault-drill.ts)', function () {
  this.timeout(240_000);
  let redis: OwnRedis;
  let site: FixtureServer;
  let serveProcess: ServiceProcess;
  let worker: ServiceProcess;

  before(async () => {
    redis = await startOwnRedis();
    site = await serve({ '/': '<title>drill</title><body style="background:#c60">drill</body>' });
    const env = baseEnv(redis.url, { RENDER_SCRIPT_BUDGET_MS: '2000' });
    serveProcess = await spawnService('serve', env);
    worker = await spawnService('worker', env);
    const keys = await keyMaker(redis.url, env.REDIS_PREFIX);
    process.env.DRILL_KEY = (await keys.newKey('business')).key;
    process.env.DRILL_OTHER_KEY = (await keys.newKey('business')).key;
    await keys.close();
  });
  after(async () => {
    await Promise.all([stopService(serveProcess), stopService(worker)]);
    // The drill's start command daemonized a redis-server of its own on the port: stop it too.
    execSync(`redis-cli -p ${redis.port} shutdown nosave 2>/dev/null || true`, { shell: '/bin/sh' });
    await redis.close();
    await site.close();
  });

  it('runs the worker, hostile and Redis drills against a running deployment and prints what the service did', async () => {
    const port = redis.port;
    const { stdout } = await run(process.execPath, [
      '--import', 'tsx', 'scripts/fault-drill.ts',
      '--base-url', serveProcess.url,
      '--key', String(process.env.DRILL_KEY),
      '--other-key', String(process.env.DRILL_OTHER_KEY),
      '--page-url', `${site.url}/`,
      '--drills', 'worker,hostile,redis',
      '--jobs', '2',
      '--kill-worker', `kill -KILL ${worker.pid}`,
      '--stop-redis', `redis-cli -p ${port} shutdown nosave`,
      '--start-redis', `redis-server --port ${port} --bind 127.0.0.1 --save '' --appendonly no --daemonize yes && until redis-cli -p ${port} ping >/dev/null 2>&1; do sleep 0.05; done`,
    ], { timeout: 200_000 });

    expect(stdout).to.match(/worker \| job \S+: completed after/);
    expect(stdout).to.match(/hostile\| POST \/api\/html2image \(endless loop\) #1 -> 400 .*script ran for more than 2000 ms/);
    expect(stdout).to.match(/hostile\| GET \/api\/screenshot during four endless-loop renders -> 200/);
    expect(stdout).to.match(/redis  \| POST \/api\/keys -> 503 Retry-After: \d+ \(\d+ ms\): the service store \(Redis\) is unavailable/);
    expect(stdout).to.match(/redis  \| GET \/api\/health -> 200 \(\d+ ms\) status=degraded/);
    expect(stdout).to.match(/redis  \| POST \/api\/keys -> 200 .*answering again \d+ ms after the start command returned/);
    await worker.exited; // the drill killed it
  });
});
