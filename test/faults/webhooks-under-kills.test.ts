import { expect } from 'chai';
import { startFixtureServer, type FixtureServer as Receiver } from '../support/fixture-server.js';
import { Webhook } from 'standardwebhooks';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { keyMaker } from './support/keys.js';
import { baseEnv, sharedRedisUrl as redisUrl, spawnService, stopService, type ServiceProcess } from './support/service-process.js';
import { until } from '../support/wait.js';

interface Delivery {
  id: string;
  body: { job_id: string; image?: string };
  answered: number;
}

describe('faults: webhooks while workers are killed', function () {
  this.timeout(240_000);
  let site: FixtureServer;
  let receiver: Receiver;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];
  let onDelivery: (n: number) => void = () => undefined;
  let secret = '';

  before(async () => {
    // Slow enough that kills land while pages render.
    site = await serve({
      '/page': (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<body style="background:#a0a">queued</body>'), 300),
    });
    receiver = await startFixtureServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c));
      req.on('end', () => {
        const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
        const body = new Webhook(secret).verify(raw, headers) as Delivery['body'];
        const seen = deliveries.filter((d) => d.body.job_id === body.job_id).length;
        // A job's first delivery fails (the retry path), its second answers slowly (a kill can land mid-delivery).
        const answer = seen === 0 ? 500 : 204;
        const delivery: Delivery = { id: headers['webhook-id'], body, answered: 0 };
        deliveries.push(delivery);
        onDelivery(deliveries.length);
        setTimeout(() => {
          delivery.answered = answer;
          res.writeHead(answer).end();
        }, answer === 204 ? 300 : 0);
      });
    });
    receiverUrl = `${receiver.url}/hook`;
  });
  after(async () => {
    await site.close();
    await receiver.close();
  });

  it('every webhook is delivered (deduplicated by webhook-id) when worker processes are SIGKILLed at any moment', async () => {
    const env = baseEnv(redisUrl(), { WEBHOOK_ATTEMPTS: '10', BROWSER_CONCURRENCY: '2' });
    const api = await spawnService('api', env);
    const workers: ServiceProcess[] = await Promise.all([spawnService('worker', env), spawnService('worker', env)]);
    const keys = await keyMaker(redisUrl(), env.REDIS_PREFIX);
    let kills = 0;
    const killOne = async () => {
      const victim = workers.shift();
      if (!victim) return;
      kills++;
      await stopService(victim, 'SIGKILL');
      workers.push(await spawnService('worker', env));
    };
    try {
      const made = await keys.newKey('business');
      secret = made.secret;
      const headers = { 'content-type': 'application/json', 'X-API-Key': made.key };
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${api.url}/api/screenshot/queue`, { method: 'POST', headers, body: JSON.stringify({ url: `${site.url}/page?n=${i}`, format: 'png', width: 400, height: 300, webhook_url: receiverUrl }) });
        expect(res.status).to.equal(202);
        ids.push(((await res.json()) as { job_id: string }).job_id);
      }

      // Kills mid-render (while the first pages load) and mid-delivery (while the receiver answers).
      const killing: Promise<void>[] = [];
      onDelivery = (n) => {
        if (n === 2 || n === 5 || n === 8) killing.push(killOne());
      };
      await until('the first render to start', () => (site.hits.length ? true : undefined));
      await killOne();
      await until('a second round of renders', () => (site.hits.length >= 3 ? true : undefined), 60_000);
      await killOne();

      const delivered = await until('every job to be delivered', () => {
        const ok = new Set(deliveries.filter((d) => d.answered === 204).map((d) => d.body.job_id));
        return ids.every((id) => ok.has(id)) ? ok : undefined;
      }, 180_000, 200);
      await Promise.all(killing);
      expect(kills).to.be.at.least(3);
      expect([...delivered].sort()).to.deep.equal([...ids].sort());

      let retriedInLog = 0;
      for (const id of ids) {
        const mine = deliveries.filter((d) => d.body.job_id === id);
        expect(new Set(mine.map((d) => d.id)), `one webhook-id for ${id}`).to.deep.equal(new Set([`msg_${id}`]));
        expect(mine.every((d) => typeof d.body.image === 'string' && d.body.image.length > 100)).to.equal(true);
        const status = await until(`status of ${id} to show the delivery`, async () => {
          const s = (await (await fetch(`${api.url}/api/screenshot/status/${id}`, { headers })).json()) as {
            status: string;
            webhook: { delivered: boolean; state: string; last_status: number | null; attempts: { status: number | null }[] };
          };
          return s.webhook.state === 'delivered' ? s : undefined;
        });
        expect(status.status).to.equal('completed');
        expect(status.webhook.delivered).to.equal(true);
        expect(status.webhook.last_status).to.equal(204);
        // A worker killed while the receiver answers never learns the answer, so the log can hold
        // fewer attempts than the receiver saw, never more, and always ends with the delivery.
        const logged = status.webhook.attempts;
        expect(logged.length).to.be.within(1, mine.length);
        expect(logged.at(-1)?.status).to.equal(204);
        if (logged.some((a) => a.status === 500)) retriedInLog++;
      }
      // At most three kills land mid-delivery; the other jobs show their failed first attempt.
      expect(retriedInLog).to.be.at.least(ids.length - 3);
    } finally {
      onDelivery = () => undefined;
      await keys.close();
      await Promise.all([...workers, api].map((p) => stopService(p)));
    }
  });
});
