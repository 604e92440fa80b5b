import { spawn } from 'node:child_process';
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { startTestService, type TestService } from '../support/service.js';

interface Delivery { headers: http.IncomingHttpHeaders; body: string }

describe('screenshot queue', function () {
  this.timeout(120_000);
  let svc: TestService;
  let site: http.Server;
  let siteUrl: string;
  let receiver: http.Server;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];
  let failFirst = 0;

  before(async () => {
    site = http.createServer((_req, res) => res.setHeader('content-type', 'text/html').end('<body style="background:#0a0;margin:0"><h1>queued page</h1></body>'));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body });
        if (failFirst > 0) {
          failFirst--;
          res.writeHead(500).end();
        } else res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    svc = await startTestService({ WEBHOOK_BACKOFF_MS: '100' }, { workers: true });
  });
  after(async () => {
    await svc.close();
    site.close();
    receiver.close();
  });

  async function proKey() {
    const created = await svc.deps.keys.create();
    await svc.setKey(created.plain, { tier: 'pro' });
    return { key: created.plain, secret: created.record.webhook_secret };
  }

  async function until<T>(fn: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 600; i++) {
      const v = await fn();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('condition not met in time');
  }

  it('POST /api/screenshot/queue, with a pro key, completes and delivers a signed webhook after a failed attempt', async () => {
    const { key, secret } = await proKey();
    failFirst = 1;
    const headers = { 'X-API-Key': key };
    const queued = await svc.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: siteUrl, webhook_url: receiverUrl, width: 800 } });
    expect(queued.status).to.equal(202);
    expect(queued.body.status).to.equal('queued');
    const id = queued.body.job_id as string;

    const early = await svc.call(`/api/screenshot/result/${id}`, { headers });
    expect([200, 202]).to.include(early.status);

    const status = await until(async () => {
      const s = await svc.call(`/api/screenshot/status/${id}`, { headers });
      return s.body.status === 'completed' && s.body.webhook?.delivered ? s.body : undefined;
    });
    expect(status.completed_at).to.be.a('string');
    expect(status.result_url).to.equal(`${svc.url}/api/screenshot/result/${id}`);
    expect(status.webhook.attempts.map((a: { status: number }) => a.status)).to.deep.equal([500, 204]);

    const result = await svc.call(`/api/screenshot/result/${id}`, { headers });
    expect(result.status).to.equal(200);
    expect(result.body).to.include({ job_id: id, url: siteUrl, format: 'webp', width: 800, height: 720 });
    const meta = await sharp(Buffer.from(result.body.image, 'base64')).metadata();
    expect(meta.format).to.equal('webp');
    expect(meta.width).to.equal(800);

    expect(deliveries).to.have.length(2);
    const last = deliveries[1];
    const verified = new Webhook(secret).verify(last.body, {
      'webhook-id': String(last.headers['webhook-id']),
      'webhook-timestamp': String(last.headers['webhook-timestamp']),
      'webhook-signature': String(last.headers['webhook-signature']),
    }) as { job_id: string; image: string };
    expect(verified.job_id).to.equal(id);
    expect(verified.image).to.equal(result.body.image);
    expect(deliveries[0].headers['webhook-id'], 'same id across retries').to.equal(last.headers['webhook-id']);
  });

  it('a job queued through an API-only instance is done by a worker of another instance on the same Redis', async () => {
    const prefix = svc.deps.config.REDIS_PREFIX;
    const apiOnly = await startTestService({ REDIS_PREFIX: prefix });
    try {
      const key = await apiOnly.newKey('pro');
      const headers = { 'X-API-Key': key };
      const queued = await apiOnly.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: siteUrl, format: 'png' } });
      expect(queued.status).to.equal(202);
      const result = await until(async () => {
        const r = await apiOnly.call(`/api/screenshot/result/${queued.body.job_id}`, { headers });
        return r.status === 200 ? r.body : undefined;
      });
      expect(result.format).to.equal('png');
      expect((await sharp(Buffer.from(result.image, 'base64')).metadata()).format).to.equal('png');
    } finally {
      await apiOnly.close();
    }
  });

  it('POST /api/screenshot/queue, without a key 401, with a free key 402', async () => {
    expect((await svc.call('/api/screenshot/queue', { method: 'POST', json: { url: siteUrl } })).status).to.equal(401);
    const free = await svc.newKey();
    const res = await svc.call('/api/screenshot/queue', { method: 'POST', headers: { 'X-API-Key': free }, json: { url: siteUrl } });
    expect(res.status).to.equal(402);
    expect(res.body.error).to.match(/pro or business/);
  });

  it('GET status/result of an unknown job or another key\'s job answer 404', async () => {
    const { key } = await proKey();
    const other = await proKey();
    const queued = await svc.call('/api/screenshot/queue', { method: 'POST', headers: { 'X-API-Key': key }, json: { url: siteUrl } });
    expect((await svc.call(`/api/screenshot/status/${queued.body.job_id}`, { headers: { 'X-API-Key': other.key } })).status).to.equal(404);
    expect((await svc.call('/api/screenshot/result/nope', { headers: { 'X-API-Key': key } })).status).to.equal(404);
  });

  it('POST /api/screenshot/queue, with a refused target or webhook URL, answers 400 at once', async () => {
    const strict = await startTestService({ ALLOW_PRIVATE_TARGETS: 'false' }, { workers: true });
    try {
      const created = await strict.deps.keys.create();
      await strict.setKey(created.plain, { tier: 'business' });
      const headers = { 'X-API-Key': created.plain };
      const bad = await strict.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: siteUrl } });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.match(/loopback/);
      const badHook = await strict.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: 'https://example.com/', webhook_url: receiverUrl } });
      expect(badHook.status).to.equal(400);
    } finally {
      await strict.close();
    }
  });
});

describe('screenshot queue, when a worker dies mid-job', function () {
  this.timeout(120_000);

  it('another worker picks the job up and completes it', async () => {
    const site = http.createServer((_req, res) => res.setHeader('content-type', 'text/html').end('<h1>rescued</h1>'));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    const fastRecovery = { JOB_LOCK_MS: '1500', JOB_STALLED_INTERVAL_MS: '500' };
    const api = await startTestService(fastRecovery);
    const stuck = spawn(process.execPath, ['--import', 'tsx', 'test/jobs/support/stuck-worker.ts'], {
      env: { ...process.env, ...fastRecovery, REDIS_URL: process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: api.deps.config.REDIS_PREFIX },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let rescuer: TestService | undefined;
    try {
      const key = await api.newKey('pro');
      const headers = { 'X-API-Key': key };
      const taken = new Promise<string>((resolve) => stuck.stdout.on('data', (d: Buffer) => resolve(String(d).trim())));
      const queued = await api.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: siteUrl, format: 'png' } });
      expect(await taken).to.equal(`took ${queued.body.job_id}`);
      expect((await api.call(`/api/screenshot/status/${queued.body.job_id}`, { headers })).body.status).to.equal('processing');

      stuck.kill('SIGKILL');
      rescuer = await startTestService({ ...fastRecovery, REDIS_PREFIX: api.deps.config.REDIS_PREFIX }, { workers: true });

      let status: { status: string } = { status: 'processing' };
      for (let i = 0; i < 300 && status.status !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await api.call(`/api/screenshot/status/${queued.body.job_id}`, { headers })).body;
      }
      expect(status.status).to.equal('completed');
      const result = await api.call(`/api/screenshot/result/${queued.body.job_id}`, { headers });
      expect((await sharp(Buffer.from(result.body.image, 'base64')).metadata()).format).to.equal('png');
    } finally {
      stuck.kill('SIGKILL');
      await rescuer?.close();
      await api.close();
      site.close();
    }
  });
});
