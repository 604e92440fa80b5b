import { execFile, execSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { keyMaker } from './support/keys.js';
import { startOwnRedis, type OwnRedis } from './support/redis-server.js';
import { baseEnv, spawnService, stopService, type ServiceProcess } from './support/service-process.js';

const run = promisify(execFile);
const page = '<title>drill</title><body style="background:#c60">drill</body>';

describe('faults: the operator\'s fault drill (scripts/fault-drill.ts)', function () {
  this.timeout(240_000);
  let redis: OwnRedis;
  let site: FixtureServer;
  let api: ServiceProcess;
  let first: ServiceProcess;
  let second: ServiceProcess | undefined;
  let env: Record<string, string>;
  let dir: string;
  /** While the first worker lives, the page never answers: its render of the job is still running when it dies. */
  let holding = true;
  let heldRenders = 0;

  before(async () => {
    redis = await startOwnRedis();
    dir = await mkdtemp(path.join(os.tmpdir(), 'drill-'));
    site = await serve({
      '/calm': page,
      '/': (_req, res) => {
        if (holding) {
          heldRenders++;
          void writeFile(path.join(dir, 'rendering'), '');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html' }).end(page);
      },
    });
    env = baseEnv(redis.url, { RENDER_SCRIPT_BUDGET_MS: '2000' });
    // HTTP alone, and one worker: every job is the first worker's until it dies.
    api = await spawnService('api', env);
    first = await spawnService('worker', env);
    void first.exited.then(async () => {
      holding = false;
      second = await spawnService('worker', env);
    });
    const keys = await keyMaker(redis.url, env.REDIS_PREFIX);
    process.env.DRILL_KEY = (await keys.newKey('business')).key;
    process.env.DRILL_OTHER_KEY = (await keys.newKey('business')).key;
    await keys.close();
  });
  after(async () => {
    await Promise.all([stopService(api), stopService(first), stopService(second)]);
    // The drill's start command daemonized a redis-server of its own on the port: stop it too.
    execSync(`redis-cli -p ${redis.port} shutdown nosave 2>/dev/null || true`, { shell: '/bin/sh' });
    await redis.close();
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the worker, hostile and Redis drills against a running deployment: the killed worker\'s job is finished by another', async () => {
    const port = redis.port;
    const marker = path.join(dir, 'rendering');
    const { stdout } = await run(process.execPath, [
      '--import', 'tsx', 'scripts/fault-drill.ts',
      '--base-url', api.url,
      '--key', String(process.env.DRILL_KEY),
      '--other-key', String(process.env.DRILL_OTHER_KEY),
      '--page-url', `${site.url}/`,
      '--drills', 'worker,hostile,redis',
      '--jobs', '1',
      '--timeout-s', '60',
      // Killed mid-render: once its browser asked for the page.
      '--kill-worker', `while [ ! -e ${marker} ]; do sleep 0.05; done; kill -KILL ${first.pid}`,
      '--stop-redis', `redis-cli -p ${port} shutdown nosave`,
      '--start-redis', `redis-server --port ${port} --bind 127.0.0.1 --save '' --appendonly no --daemonize yes && until redis-cli -p ${port} ping >/dev/null 2>&1; do sleep 0.05; done`,
    ], { timeout: 200_000 });

    // The first worker held the job (its render was at the page) and died with it; only another could complete it.
    expect(await first.exited).to.equal('SIGKILL');
    expect(heldRenders, 'the first worker was rendering the job when it was killed').to.be.greaterThan(0);
    expect(second, 'a second worker started after the kill').to.not.equal(undefined);
    expect(stdout).to.match(/worker \| job \S+: completed after/);

    expect(stdout).to.match(/hostile\| \d+ renders open or waiting in the pool/);
    expect(stdout).to.match(/hostile\| POST \/api\/html2image \(endless loop\) #1 -> 400 .*script ran for more than 2000 ms/);
    expect(stdout).to.match(/hostile\| GET \/api\/screenshot during four endless-loop renders -> 200/);
    expect(stdout).to.match(/redis  \| POST \/api\/keys -> 503 Retry-After: \d+ \(\d+ ms\): the service store \(Redis\) is unavailable/);
    expect(stdout).to.match(/redis  \| GET \/api\/health -> 200 \(\d+ ms\) status=degraded/);
    expect(stdout).to.match(/redis  \| POST \/api\/keys -> 200 .*answering again \d+ ms after the start command returned/);
  });

  it('without --other-key, the hostile drill makes a key for the second caller instead of measuring the attacker against itself', async () => {
    const { stdout } = await run(process.execPath, [
      '--import', 'tsx', 'scripts/fault-drill.ts',
      '--base-url', api.url,
      '--key', String(process.env.DRILL_KEY),
      '--page-url', `${site.url}/calm`,
      '--drills', 'hostile',
      '--timeout-s', '60',
    ], { timeout: 120_000 });
    expect(stdout).to.match(/hostile\| created a free key for the other caller \(POST \/api\/keys\); give --other-key to use your own/);
    expect(stdout).to.match(/hostile\| GET \/api\/screenshot during four endless-loop renders -> 200/);
    expect(stdout).to.match(/hostile\| the attack delayed the other caller by -?\d+ ms/);
  });
});
