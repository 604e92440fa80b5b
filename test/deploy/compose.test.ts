import { expect } from 'chai';
import crypto from 'node:crypto';
import sharp from 'sharp';
import { parse } from 'yaml';
import { readFile } from 'node:fs/promises';
import { until } from '../support/wait.js';
import { buildTestImage, compose, containerOf, docker, freePortPair } from './support/docker.js';

interface Stack {
  services: Record<string, { command?: string[]; healthcheck?: { test: string[] }; restart?: string; deploy?: { replicas: number }; volumes?: string[] }>;
}

describe('compose.yaml, as `docker-compose up` runs it', function () {
  this.timeout(300_000);
  const project = `sltest${crypto.randomBytes(3).toString('hex')}`;
  const files = ['compose.yaml', 'test/deploy/fixtures/compose.slow-site.yaml'];
  let env: NodeJS.ProcessEnv;
  let base: string;

  before(async function () {
    this.timeout(900_000);
    const image = await buildTestImage();
    const port = await freePortPair();
    // Two worker replicas (one is killed below); the site on the stack's own network is private.
    env = { SITELENS_IMAGE: image, SITELENS_PORTS: `127.0.0.1:${port}-${port + 1}`, ALLOW_PRIVATE_TARGETS: 'true', JOB_LOCK_MS: '4000' };
    base = `http://127.0.0.1:${port}`;
    await compose(project, files, ['up', '-d', '--scale', 'worker=2'], env);
    // Every SiteLens container reports healthy through the image's HEALTHCHECK (/readyz).
    await until('every container to be healthy', async () => {
      const states = (await docker(['ps', '--filter', `name=${project}_`, '--format', '{{.Names}} {{.Status}}'])).split('\n').filter((l) => !l.includes('slow-site'));
      return states.length === 5 && states.every((l) => l.includes('(healthy)')) ? true : undefined;
    }, 180_000, 500);
  });
  after(async () => {
    await compose(project, files, ['down', '-v', '-t', '5'], env).catch(() => undefined);
  });

  const containerNamed = async (service: string, n: number) => containerOf(await docker(['ps', '-q', '--filter', `name=${project}_${service}_${n}`]));
  const renders = async (service: string, n: number) => {
    const c = await containerNamed(service, n);
    const text = await c.exec(['node', '-e', "fetch('http://127.0.0.1:8081/metrics').then((r) => r.text()).then((t) => process.stdout.write(t))"]);
    return Number(/^browser_renders (\d+)/m.exec(text)?.[1] ?? 0);
  };

  it('holds Redis with AOF and noeviction, two API replicas and a worker, each with a health check and a restart policy; every container comes up healthy and both replicas answer', async () => {
    const stack = parse(await readFile('compose.yaml', 'utf8'), { merge: true }) as Stack;
    expect(stack.services.redis.command).to.include.members(['--appendonly', '--maxmemory-policy', 'noeviction']);
    expect(stack.services.redis.healthcheck?.test).to.deep.equal(['CMD', 'redis-cli', 'ping']);
    expect(stack.services.api.deploy?.replicas).to.equal(2);
    expect(stack.services.worker.deploy?.replicas).to.equal(1);
    for (const s of ['redis', 'api', 'worker']) expect(stack.services[s].restart, s).to.equal('unless-stopped');
    for (const url of [base, `http://127.0.0.1:${Number(new URL(base).port) + 1}`]) expect((await fetch(`${url}/api/health`)).status, url).to.equal(200);
  });

  it('a queued job is done by the other worker container when the one running it is killed', async () => {
    const api = await containerNamed('api', 1);
    const { api_key: key } = JSON.parse(await api.exec(['/app/deploy/docker/entrypoint.sh', 'keys', 'create', '--tier', 'pro'])) as { api_key: string };
    const queued = await fetch(`${base}/api/screenshot/queue`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://slow-site:3000/', format: 'png', full_page: false }),
    });
    expect(queued.status).to.equal(202);
    const { job_id: id } = (await queued.json()) as { job_id: string };

    // The worker whose browser took the render is the one running the job (the page takes 8 s).
    const holder = await until('a worker to start the render', async () => {
      const [one, two] = [await renders('worker', 1), await renders('worker', 2)];
      return one + two === 0 ? undefined : one > 0 ? 1 : 2;
    }, 60_000, 200);
    const other = holder === 1 ? 2 : 1;
    await docker(['kill', '-s', 'KILL', (await containerNamed('worker', holder)).id]);

    const done = await until('the job to complete after its worker was killed', async () => {
      const s = (await (await fetch(`${base}/api/screenshot/status/${id}`, { headers: { 'X-API-Key': key } })).json()) as { status: string };
      return s.status === 'completed' || s.status === 'failed' ? s : undefined;
    }, 120_000, 500);
    expect(done.status).to.equal('completed');
    expect(await renders('worker', other), 'the surviving worker rendered it').to.be.at.least(1);
    const result = (await (await fetch(`${base}/api/screenshot/result/${id}`, { headers: { 'X-API-Key': key } })).json()) as { image: string };
    const { data } = await sharp(Buffer.from(result.image, 'base64')).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).to.deep.equal([0, 170, 0]); // the slow page's green
  });
});
