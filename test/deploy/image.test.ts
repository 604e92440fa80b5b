import { expect } from 'chai';
import crypto from 'node:crypto';
import sharp from 'sharp';
import { html, serve, status, type FixtureServer } from '../links/fixture-site.js';
import { startGithubStandIn } from '../actions/support/github-stand-in.js';
import { runAction } from '../actions/support/run-action.js';
import { startOwnRedis, type OwnRedis } from '../faults/support/redis-server.js';
import { freePort } from '../support/service.js';
import { until } from '../support/wait.js';
import { answers200, buildTestImage, docker, runContainer, type Container } from './support/docker.js';

/** A PNG's size and whether it holds more than one colour (a blank render would not). */
async function picture(png: Buffer) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const colours = new Set<number>();
  for (let i = 0; i < data.length && colours.size < 3; i += info.channels * 97) colours.add(data.readUInt32BE(i));
  return { width: info.width, height: info.height, colours: colours.size };
}

describe('the container image, as `docker run` runs it', function () {
  this.timeout(180_000);
  let image: string;
  const containers: Container[] = [];
  const volumes: string[] = [];
  const start = async (args: string[]) => {
    const c = await runContainer(args);
    containers.push(c);
    return c;
  };

  before(async function () {
    this.timeout(900_000); // a first build downloads Chromium and the packages; later ones are cached
    image = await buildTestImage();
  });
  after(async () => {
    await Promise.all(containers.map((c) => c.remove()));
    for (const v of volumes) await docker(['volume', 'rm', '-f', v]).catch(() => undefined);
  });

  it('is at most 1 GB, runs as a non-root user under tini, exposes 8080 with a health check, and carries OCI labels', async () => {
    const [inspect] = JSON.parse(await docker(['image', 'inspect', image])) as Array<{
      Size: number;
      Config: { User: string; ExposedPorts: Record<string, unknown>; Entrypoint: string[]; Cmd: string[]; Healthcheck?: { Test: string[] }; Labels: Record<string, string> };
    }>;
    console.log(`      image size: ${(inspect.Size / 1e9).toFixed(3)} GB`);
    expect(inspect.Size).to.be.at.most(1_000_000_000);
    expect(inspect.Config.User).to.equal('10001:10001');
    expect(inspect.Config.ExposedPorts).to.have.key('8080/tcp');
    expect(inspect.Config.Entrypoint[0]).to.equal('/usr/bin/tini');
    expect(inspect.Config.Cmd).to.deep.equal(['serve']);
    expect(inspect.Config.Healthcheck?.Test.join(' ')).to.include('healthcheck.mjs');
    expect(inspect.Config.Labels).to.include({ 'org.opencontainers.image.title': 'SiteLens', 'org.opencontainers.image.licenses': 'MIT AND GPL-3.0-only' });
    // The fingerprint data's licence travels with it; the project's own beside the code.
    const licences = await docker(['run', '--rm', '--entrypoint', 'sh', image, '-c', 'head -2 /app/data/fingerprints/COPYING; head -1 /app/LICENSE; cat /app/data/fingerprints/NOTICE']);
    expect(licences).to.include('GNU GENERAL PUBLIC LICENSE').and.include('MIT License').and.include('enthec/webappanalyzer');
  });

  it('alone, on a read-only root with /tmp and a data volume: health, a screenshot, keys and the job-secrets key kept on the volume across a restart (a queued job with target_headers completes), SIGTERM drains an in-flight render and exits 0', async () => {
    const port = await freePort();
    const volume = `sitelens-test-${crypto.randomBytes(4).toString('hex')}`;
    volumes.push(volume);
    // The embedded Redis keeps its AOF on the volume. Loopback is the container's own: the service
    // may render itself. SHUTDOWN_DELAY_MS (as compose sets it) keeps the listener open a moment
    // after SIGTERM, so the in-flight render below, whose target is this very server, has its
    // page served even when its navigation starts just after the signal.
    const args = ['-p', `127.0.0.1:${port}:8080`, '--read-only', '--tmpfs', '/tmp', '-v', `${volume}:/data`, '-e', 'ALLOW_PRIVATE_TARGETS=127.0.0.1/32', '-e', 'SHUTDOWN_DELAY_MS=2000', image];
    const started = Date.now();
    const first = await start(args);
    const base = `http://127.0.0.1:${port}`;
    const healthMs = await answers200(`${base}/api/health`, started);
    const health = (await (await fetch(`${base}/api/health`)).json()) as { status: string; redis: string };
    expect(health).to.include({ status: 'ok', redis: 'ok' });
    expect(await first.logs()).to.include('embedded redis-server').and.include('/data/redis');

    const key = ((await (await fetch(`${base}/api/keys`, { method: 'POST' })).json()) as { api_key: string }).api_key;
    const shot = await fetch(`${base}/api/screenshot?url=${encodeURIComponent('http://127.0.0.1:8080/')}&width=800&height=600&full_page=false`, { headers: { 'X-API-Key': key } });
    expect(shot.status, await shot.clone().text()).to.equal(200);
    const screenshotMs = Date.now() - started;
    expect(await picture(Buffer.from(await shot.arrayBuffer()))).to.deep.include({ width: 800, height: 600 }).and.satisfy((p: { colours: number }) => p.colours > 1);
    console.log(`      from docker run: /api/health 200 after ${healthMs} ms, a screenshot after ${screenshotMs} ms`);

    // `serve` makes the key that seals queued jobs' target_headers, on the volume.
    const secretsKey = await first.exec(['cat', '/data/job-secrets.key']);
    expect(Buffer.from(secretsKey.trim(), 'base64')).to.have.length(32);

    // A render under way when SIGTERM arrives finishes (delay: 4 s before capture); the process exits 0.
    const inFlight = fetch(`${base}/api/screenshot?url=${encodeURIComponent('http://127.0.0.1:8080/')}&delay=4000&full_page=false`, { headers: { 'X-API-Key': key } });
    await until('the render to be under way', async () => {
      const metrics = await (await fetch(`${base}/metrics`)).text();
      return /^browser_pages_open [1-9]/m.test(metrics) ? true : undefined;
    });
    const stopping = Date.now();
    const [answer, code] = await Promise.all([inFlight, first.stop(30)]);
    expect(answer.status).to.equal(200);
    expect(code).to.equal(0);
    console.log(`      SIGTERM to exit 0: ${Date.now() - stopping} ms, with a 4 s render in flight`);

    // Same volume, new container: the key made before is still there.
    const second = await start(args);
    await answers200(`${base}/api/health`, Date.now());
    expect((await fetch(`${base}/api/usage`, { headers: { 'X-API-Key': key } })).status).to.equal(200);
    expect(await second.exec(['cat', '/data/job-secrets.key']), 'the sealing key is the one made before the restart').to.equal(secretsKey);

    // So a queued job with headers is taken (not the 400 of a service without JOB_SECRETS_KEY)
    // and its worker opens them. The queue wants a paid tier: the operator's command sets it.
    await second.exec(['/app/deploy/docker/entrypoint.sh', 'keys', 'set-tier', key, 'pro']);
    const queued = await fetch(`${base}/api/screenshot/queue`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:8080/', target_headers: { Authorization: 'Bearer preview-token' } }),
    });
    expect(queued.status, await queued.clone().text()).to.equal(202);
    const { job_id: jobId } = (await queued.json()) as { job_id: string };
    const done = await until('the queued screenshot with target_headers to finish', async () => {
      const { status } = (await (await fetch(`${base}/api/screenshot/status/${jobId}`, { headers: { 'X-API-Key': key } })).json()) as { status: string };
      return status === 'completed' || status === 'failed' ? status : undefined;
    });
    expect(done).to.equal('completed');
  });

  describe('the scale-out roles and the actions, on this host network (a loopback site, its own Redis)', () => {
    let redis: OwnRedis;
    let site: FixtureServer;
    before(async () => {
      redis = await startOwnRedis();
      site = await serve({
        '/': html('<a href="/ok">ok</a> <a href="/gone">gone</a> <img src="/missing.png">'),
        '/ok': html('ok'),
        '/gone': status(410),
      });
    });
    after(async () => {
      await site?.close();
      await redis?.close();
    });
    const common = () => ['--network', 'host', '--read-only', '--tmpfs', '/tmp', '-e', `REDIS_URL=${redis.url}`, '-e', 'ALLOW_PRIVATE_TARGETS=true'];

    it('`IMAGE api` serves the API only, `IMAGE worker` runs the queued job and answers its own probes; `keys` is the operator command', async () => {
      const [apiPort, workerPort] = [await freePort(), await freePort()];
      const api = await start([...common(), '-e', `PORT=${apiPort}`, image, 'api']);
      const worker = await start([...common(), '-e', `WORKER_PORT=${workerPort}`, image, 'worker']);
      const base = `http://127.0.0.1:${apiPort}`;
      await answers200(`${base}/readyz`, Date.now());
      await answers200(`http://127.0.0.1:${workerPort}/readyz`, Date.now());
      expect(await api.logs()).to.include('"mode":"api"');

      const created = JSON.parse(await api.exec(['/app/deploy/docker/entrypoint.sh', 'keys', 'create', '--tier', 'pro'])) as { api_key: string; tier: string };
      expect(created.tier).to.equal('pro');
      const queued = await fetch(`${base}/api/screenshot/queue`, {
        method: 'POST',
        headers: { 'X-API-Key': created.api_key, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${site.url}/`, format: 'png', full_page: false }),
      });
      expect(queued.status).to.equal(202);
      const { job_id: id } = (await queued.json()) as { job_id: string };
      const done = await until('the worker container to complete the job', async () => {
        const s = (await (await fetch(`${base}/api/screenshot/status/${id}`, { headers: { 'X-API-Key': created.api_key } })).json()) as { status: string };
        return s.status === 'completed' || s.status === 'failed' ? s : undefined;
      }, 60_000, 200);
      expect(done.status).to.equal('completed');
      // The API process has no workers: the render was the worker container's.
      const workerMetrics = await (await fetch(`http://127.0.0.1:${workerPort}/metrics`)).text();
      expect(workerMetrics).to.match(/^browser_renders [1-9]/m);
    });

    it('as a workflow service container: the deadlinks action, as the runner runs it, checks a site the job serves (host.docker.internal)', async () => {
      const port = await freePort();
      // What `services:` with `--add-host=host.docker.internal:host-gateway` gives a job: the runner's host by name.
      await start([...common(), '-e', `PORT=${port}`, '--add-host', 'host.docker.internal:127.0.0.1', image]);
      await answers200(`http://localhost:${port}/readyz`, Date.now());
      const gh = await startGithubStandIn();
      try {
        const run = await runAction(
          'actions/deadlinks',
          { url: `http://host.docker.internal:${new URL(site.url).port}/`, mode: 'quick', api_url: `http://localhost:${port}`, artifact: 'false', github_token: 'ghs_installation' },
          { repository: 'acme/site', githubApiUrl: gh.url },
        );
        expect(run.code, run.stdout + run.stderr).to.equal(1);
        expect(run.outputs).to.include({ broken_count: '2', pass: 'false' });
        expect(run.summary).to.include('/gone').and.include('/missing.png');
      } finally {
        await gh.close();
      }
    });
  });
});
