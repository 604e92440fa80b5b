import { spawn } from 'node:child_process';
import { expect } from 'chai';
import type http from 'node:http';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { freePort, startTestService, type TestService } from '../support/service.js';
import { until } from '../support/wait.js';
import { MAX_STALLS } from '../../server/workers/stalls.js';

interface Delivery { headers: http.IncomingHttpHeaders; body: string }

describe('screenshot queue', function () {
  this.timeout(120_000);
  let svc: TestService;
  let site: FixtureServer;
  let siteUrl: string;
  let receiver: FixtureServer;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];
  let failFirst = 0;
  /** While set, a delivery that would succeed waits for it before answering. */
  let hold: Promise<void> | undefined;

  before(async () => {
    site = await startFixtureServer((req, res) =>
      res
        .setHeader('content-type', 'text/html')
        .end(req.url === '/tall' ? '<body style="margin:0"><div style="height:2000px;background:#0a0"></div></body>' : '<body style="background:#0a0;margin:0"><h1>queued page</h1></body>'),
    );
    siteUrl = `${site.url}/`;
    receiver = await startFixtureServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body });
        if (failFirst > 0) {
          failFirst--;
          res.writeHead(500).end();
        } else void (hold ?? Promise.resolve()).then(() => res.writeHead(204).end());
      });
    });
    receiverUrl = `${receiver.url}/hook`;
    svc = await startTestService({ WEBHOOK_BACKOFF_MS: '100' }, { workers: true });
  });
  after(async () => {
    await svc.close();
    await site.close();
    await receiver.close();
  });

  async function proKey() {
    const created = await svc.deps.keys.create();
    await svc.setKey(created.plain, { tier: 'pro' });
    return { key: created.plain, secret: created.record.webhook_secret };
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

    // Between the failed attempt and the answer to the next one, the status says when it runs.
    let release = () => undefined as void;
    hold = new Promise<void>((r) => (release = r));
    try {
      const retrying = await until('the status to show the retry', async () => {
        const s = await svc.call(`/api/screenshot/status/${id}`, { headers });
        return s.body.webhook?.state === 'retrying' ? s.body.webhook : undefined;
      });
      expect(retrying).to.include({ delivered: false, last_status: 500 });
      expect(retrying.last_error).to.match(/500/);
      expect(retrying.attempts.map((a: { status: number }) => a.status)).to.deep.equal([500]);
      // WEBHOOK_BACKOFF_MS=100: the retry runs at most 100 ms after the failed attempt (BullMQ's jitter only shortens it).
      expect(Date.parse(retrying.next_attempt_at) - Date.parse(retrying.attempts[0].at)).to.equal(100);
    } finally {
      release();
      hold = undefined;
    }

    const status = await until('the job to complete and its webhook to be delivered', async () => {
      const s = await svc.call(`/api/screenshot/status/${id}`, { headers });
      return s.body.status === 'completed' && s.body.webhook?.delivered ? s.body : undefined;
    });
    expect(status.completed_at).to.be.a('string');
    expect(status.result_url).to.equal(`${svc.url}/api/screenshot/result/${id}`);
    expect(status.webhook.attempts.map((a: { status: number }) => a.status)).to.deep.equal([500, 204]);
    expect(status.webhook).to.include({ state: 'delivered', last_status: 204, last_error: null, next_attempt_at: null });

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

  it('POST /api/screenshot/queue takes the options as GET /api/screenshot does: the whole page by default, widths from 100', async () => {
    const { key } = await proKey();
    const headers = { 'X-API-Key': key };
    const queued = await svc.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: `${site.url}/tall`, width: 200, format: 'png' } });
    expect(queued.status, queued.text).to.equal(202);
    const id = queued.body.job_id as string;
    await until('the job to complete', async () => ((await svc.call(`/api/screenshot/status/${id}`, { headers })).body.status === 'completed' ? true : undefined));
    const result = await svc.call(`/api/screenshot/result/${id}`, { headers });
    const meta = await sharp(Buffer.from(result.body.image, 'base64')).metadata();
    expect([meta.width, meta.height]).to.deep.equal([200, 2000]);
  });

  it('POST /api/screenshot/queue, for a target that stays unreachable, fails after its retries and delivers the failure to the webhook', async () => {
    const { key, secret } = await proKey();
    const deadUrl = `http://127.0.0.1:${await freePort()}/`; // nothing listens there
    const headers = { 'X-API-Key': key };
    const queued = await svc.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: deadUrl, webhook_url: receiverUrl } });
    expect(queued.status).to.equal(202);
    const id = queued.body.job_id as string;

    const status = await until('the job to fail and its webhook to be delivered', async () => {
      const s = await svc.call(`/api/screenshot/status/${id}`, { headers });
      return s.body.status === 'failed' && s.body.webhook?.delivered ? s.body : undefined;
    });
    expect(status.attempts).to.equal(3);
    expect(status.error).to.match(/could not be loaded|unreachable/);
    expect(status.code, 'the failure\'s stable code').to.equal('target_unreachable');
    const result = await svc.call(`/api/screenshot/result/${id}`, { headers });
    expect(result.status).to.equal(422);

    const mine = deliveries.filter((d) => d.headers['webhook-id'] === `msg_${id}`);
    expect(mine).to.have.length(1);
    const body = new Webhook(secret).verify(mine[0].body, {
      'webhook-id': String(mine[0].headers['webhook-id']),
      'webhook-timestamp': String(mine[0].headers['webhook-timestamp']),
      'webhook-signature': String(mine[0].headers['webhook-signature']),
    });
    expect(body).to.deep.equal({ job_id: id, url: deadUrl, status: 'failed', error: status.error, code: 'target_unreachable' });
  });

  it('a job queued through an API-only instance is done by a worker of another instance on the same Redis', async () => {
    const prefix = svc.deps.config.REDIS_PREFIX;
    const apiOnly = await startTestService({ REDIS_PREFIX: prefix });
    try {
      const key = await apiOnly.newKey('pro');
      const headers = { 'X-API-Key': key };
      const queued = await apiOnly.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: siteUrl, format: 'png' } });
      expect(queued.status).to.equal(202);
      const result = await until('the result', async () => {
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

  const fastRecovery = { JOB_LOCK_MS: '1500', JOB_STALLED_INTERVAL_MS: '500' };
  /** A worker process that takes the next screenshot job and holds it until it is killed. */
  const stuckWorker = (prefix: string) =>
    spawn(process.execPath, ['--import', 'tsx', 'test/jobs/support/stuck-worker.ts'], {
      env: { ...process.env, ...fastRecovery, REDIS_URL: process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix },
      stdio: ['ignore', 'pipe', 'inherit'],
    });

  it('another worker picks the job up and completes it', async () => {
    const site = await startFixtureServer((_req, res) => res.setHeader('content-type', 'text/html').end('<h1>rescued</h1>'));
    const siteUrl = `${site.url}/`;
    const api = await startTestService(fastRecovery);
    const stuck = stuckWorker(api.deps.config.REDIS_PREFIX);
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

      const status = await until('another worker to complete the job', async () => {
        const s = (await api.call(`/api/screenshot/status/${queued.body.job_id}`, { headers })).body as { status: string };
        return s.status === 'completed' ? s : undefined;
      });
      expect(status.status).to.equal('completed');
      const result = await api.call(`/api/screenshot/result/${queued.body.job_id}`, { headers });
      expect((await sharp(Buffer.from(result.body.image, 'base64')).metadata()).format).to.equal('png');
    } finally {
      stuck.kill('SIGKILL');
      await rescuer?.close();
      await api.close();
      await site.close();
    }
  });

  it(`a job whose worker dies ${MAX_STALLS} times is not run again: it fails with a message saying so, and its webhook says so too`, async () => {
    let rendered = 0;
    const site = await startFixtureServer((_req, res) => {
      rendered++;
      res.setHeader('content-type', 'text/html').end('<h1>deadly</h1>');
    });
    const hooks: Array<{ status: string; error: string }> = [];
    const receiver = await startFixtureServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c));
      req.on('end', () => {
        hooks.push(JSON.parse(raw));
        res.writeHead(204).end();
      });
    });
    const api = await startTestService(fastRecovery);
    let rescuer: TestService | undefined;
    try {
      const key = await api.newKey('pro');
      const headers = { 'X-API-Key': key };
      const queued = await api.call('/api/screenshot/queue', { method: 'POST', headers, json: { url: `${site.url}/`, format: 'png', webhook_url: `${receiver.url}/hook` } });
      expect(queued.status, queued.text).to.equal(202);
      for (let run = 0; run < MAX_STALLS; run++) {
        const stuck = stuckWorker(api.deps.config.REDIS_PREFIX);
        const took = await new Promise<string>((resolve) => stuck.stdout.on('data', (d: Buffer) => resolve(String(d).trim())));
        expect(took).to.equal(`took ${queued.body.job_id}`);
        stuck.kill('SIGKILL');
        await new Promise((resolve) => stuck.once('exit', resolve));
      }
      rescuer = await startTestService({ ...fastRecovery, REDIS_PREFIX: api.deps.config.REDIS_PREFIX }, { workers: true });
      const status = await until('the job to fail', async () => {
        const s = (await api.call(`/api/screenshot/status/${queued.body.job_id}`, { headers })).body as { status: string; error?: string };
        return s.status === 'failed' ? s : undefined;
      });
      expect(status.error).to.match(new RegExp(`worker died ${MAX_STALLS} times while running this job`));
      const [hook] = await until('the failure webhook', () => (hooks.length ? hooks : undefined));
      expect(hook).to.include({ status: 'failed' });
      expect(hook.error).to.equal(status.error);
      expect(rendered, 'the page is not loaded again').to.equal(0);
    } finally {
      await rescuer?.close();
      await api.close();
      await site.close();
      await receiver.close();
    }
  });
});
