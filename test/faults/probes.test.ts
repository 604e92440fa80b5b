import { expect } from 'chai';
import { startOwnRedis, type OwnRedis } from './support/redis-server.js';
import { baseEnv, spawnService, stopService, type ServiceProcess } from './support/service-process.js';
import { until } from '../support/wait.js';

interface Probe {
  status: number;
  body: { status?: string; draining?: boolean; redis?: string; browser?: string };
}

const probe = async (base: string, path: string): Promise<Probe> => {
  const res = await fetch(base + path, { signal: AbortSignal.timeout(20_000) });
  return { status: res.status, body: (await res.json()) as Probe['body'] };
};

describe('probes: /livez and /readyz, as an orchestrator calls them', function () {
  this.timeout(120_000);
  let redis: OwnRedis;
  let processes: ServiceProcess[] = [];

  before(async () => {
    redis = await startOwnRedis();
  });
  afterEach(async () => {
    await Promise.all(processes.map((p) => stopService(p)));
    processes = [];
  });
  after(async () => {
    await redis.close();
  });

  const start = async (mode: 'serve' | 'worker', extra: Record<string, string> = {}) => {
    const p = await spawnService(mode, baseEnv(redis.url, extra));
    processes.push(p);
    return p;
  };

  it('an API process: live and ready; while Redis is stopped still live, not ready (503 naming Redis), and ready again once it is back', async () => {
    const api = await start('serve');

    expect(await probe(api.url, '/livez')).to.deep.equal({ status: 200, body: { status: 'ok' } });
    expect(await probe(api.url, '/readyz')).to.deep.equal({ status: 200, body: { status: 'ready', draining: false, redis: 'ok', browser: 'ok' } });

    await redis.stop();
    try {
      expect(await probe(api.url, '/livez')).to.deep.include({ status: 200 });
      const down = await probe(api.url, '/readyz');
      expect(down).to.deep.equal({ status: 503, body: { status: 'not ready', draining: false, redis: 'unavailable', browser: 'ok' } });
      // The load balancer's view is unchanged: health explains itself with 200 and "degraded".
      const health = await fetch(`${api.url}/api/health`);
      expect(health.status).to.equal(200);
      expect(((await health.json()) as { status: string }).status).to.equal('degraded');
    } finally {
      await redis.start();
    }
    await until('/readyz to answer 200 again', async () => ((await probe(api.url, '/readyz')).status === 200 ? true : undefined), 20_000);
  });

  it('a process started while its Redis is down stays up (live, not ready, 503 with Retry-After) and serves once Redis comes', async () => {
    await redis.stop();
    try {
      const api = await start('serve');
      expect((await probe(api.url, '/livez')).status).to.equal(200);
      expect(await probe(api.url, '/readyz')).to.deep.include({ status: 503 });
      const usage = await fetch(`${api.url}/api/keys`, { method: 'POST' });
      expect(usage.status).to.equal(503);
      expect(usage.headers.get('retry-after')).to.match(/^\d+$/);
    } finally {
      await redis.start();
    }
    const [api] = processes;
    await until('/readyz to answer 200 once Redis is up', async () => ((await probe(api.url, '/readyz')).status === 200 ? true : undefined), 20_000);
    expect((await fetch(`${api.url}/api/keys`, { method: 'POST' })).status).to.equal(200);
  });

  it('on SIGTERM: /readyz answers 503 "draining" at once while the API still serves during SHUTDOWN_DELAY_MS, then the process exits 0', async () => {
    const api = await start('serve', { SHUTDOWN_DELAY_MS: '4000' });
    expect((await probe(api.url, '/readyz')).status).to.equal(200);

    api.kill('SIGTERM');
    const draining = await until('/readyz to say draining', async () => {
      const p = await probe(api.url, '/readyz');
      return p.body.draining ? p : undefined;
    });
    expect(draining).to.deep.equal({ status: 503, body: { status: 'not ready', draining: true, redis: 'ok', browser: 'ok' } });
    // Still serving: requests that reach it before the load balancer notices are answered.
    expect((await fetch(`${api.url}/api/health`)).status).to.equal(200);
    expect(await api.exited).to.equal(0);
  });

  it('a worker process serves its own /livez, /readyz and /metrics on WORKER_PORT', async () => {
    const worker = await start('worker');

    expect(await probe(worker.url, '/livez')).to.deep.equal({ status: 200, body: { status: 'ok' } });
    expect(await probe(worker.url, '/readyz')).to.deep.equal({ status: 200, body: { status: 'ready', draining: false, redis: 'ok', browser: 'ok' } });
    const metrics = await fetch(`${worker.url}/metrics`);
    expect(metrics.status).to.equal(200);
    expect(await metrics.text()).to.include('browser_pool_capacity');
    // Only the probes: the API is not served by a worker.
    expect((await fetch(`${worker.url}/api/health`)).status).to.equal(404);
  });
});
