import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/wait.js';
import { readEvents } from '../support/event-stream.js';
import { startPreviewFixture, type PreviewFixture } from './preview-fixture.js';

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('POST /api/compare (the preview report) over HTTP, with a worker', function () {
  this.timeout(120_000);
  let svc: TestService;
  let site: PreviewFixture;
  let receiver: http.Server;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];
  let key: string;
  let secret: string;
  let report: any;
  let jobId: string;

  before(async () => {
    site = await startPreviewFixture();
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    svc = await startTestService({}, { workers: true });
    // As `serve` does at start: compiling the fingerprints blocks the loop for a moment.
    await svc.deps.techDetector.ready();
    const created = await svc.deps.keys.create();
    await svc.setKey(created.plain, { tier: 'pro' });
    key = created.plain;
    secret = created.record.webhook_secret;

    const queued = await svc.call('/api/compare', {
      method: 'POST',
      headers: { 'X-API-Key': key },
      json: { baseline_url: site.production.url, preview_url: site.preview.url, paths: ['/'], viewports: [{ width: 400, height: 300 }], webhook_url: receiverUrl },
    });
    expect(queued.status, queued.text).to.equal(202);
    expect(queued.body).to.include({ status: 'queued', counted_requests: 12 });
    jobId = queued.body.job_id;
    const events = await readEvents(queued.body.events_url, key);
    const last = events.at(-1);
    expect(last?.event, JSON.stringify(last)).to.equal('report');
    expect(events.filter((e) => e.event === 'progress').length, 'progress events before the report').to.be.greaterThan(0);
    report = last?.data;
  });

  after(async () => {
    await svc?.close();
    await site?.close();
    receiver?.close();
  });

  const itemsOf = (check: string) => report.results.find((r: any) => r.check === check).items as any[];

  it('every planted regression is a regression: new broken link, lost meta description, heavier page, moved button', () => {
    expect(report.verdict).to.equal('regressed');
    expect(itemsOf('links').filter((i) => i.regression).map((i) => [i.kind, new URL(i.url).pathname, i.status])).to.deep.equal([['new_broken', '/new-page', 404]]);
    expect(itemsOf('seo').filter((i) => i.regression).map((i) => [i.kind, i.path, i.check])).to.deep.equal([['regressed', '/', 'meta_description']]);
    // The heavier page: more bytes, and a grade that drops because of them.
    expect(itemsOf('perf').filter((i) => i.regression).map((i) => [i.path, i.metric])).to.deep.equal([['/', 'grade'], ['/', 'transfer_size_bytes']]);
    const bytes = itemsOf('perf').find((i) => i.metric === 'transfer_size_bytes');
    expect(bytes.delta).to.be.greaterThan(55_000);
    // Sub-resources counted in the measured page on each side: the one script src (an inline script is not a request).
    expect(itemsOf('perf').find((i) => i.metric === 'requests')).to.include({ path: '/', baseline: 1, preview: 1, delta: 0, regression: false });
    const visual = itemsOf('visual');
    expect(visual).to.have.length(1);
    expect(visual[0]).to.include({ path: '/', width: 400, height: 300, regression: true });
    expect(visual[0].changed_ratio).to.be.greaterThan(0.01);
    expect(report.regressions).to.equal(5);
    expect(report.headline).to.equal('5 regressions in broken links, SEO, performance, visual');
  });

  it('the library version change is reported as a change to review, not a regression (an upgrade)', () => {
    const tech = report.results.find((r: any) => r.check === 'techstack');
    expect(tech.status).to.equal('changed');
    expect(tech.items).to.deep.include({ kind: 'version_changed', name: 'jQuery', baseline_version: '3.6.0', preview_version: '3.7.1', regression: false });
  });

  it('nothing both sides share is a regression: the link broken in production, SEO checks failing on both, TLS on http', () => {
    const still = itemsOf('links').filter((i) => i.kind === 'still_broken');
    expect(still.map((i) => new URL(i.url).pathname)).to.deep.equal(['/gone']);
    expect(still[0].regression).to.equal(false);
    const shared = itemsOf('seo').filter((i) => i.kind === 'still_failing');
    expect(shared.length).to.be.greaterThan(0);
    expect(shared.every((i) => i.regression === false)).to.equal(true);
    expect(report.results.find((r: any) => r.check === 'tls')).to.include({ status: 'unavailable', regressions: 0 });
    const regressed = report.results.flatMap((r: any) => r.items.filter((i: any) => i.regression).map(() => r.check));
    expect(regressed.sort()).to.deep.equal(['links', 'perf', 'perf', 'seo', 'visual']);
  });

  it('health scores per side: the preview lower; the diff image is served and shows the change', async () => {
    expect(report.health.baseline).to.be.greaterThan(report.health.preview);
    expect(report.health.delta).to.be.lessThan(0);
    const diff = await fetch(itemsOf('visual')[0].images.diff);
    expect(diff.headers.get('content-type')).to.equal('image/png');
    const meta = await sharp(Buffer.from(await diff.arrayBuffer())).metadata();
    expect(meta.width).to.equal(400);
  });

  it('GET /api/compare/:id answers the same report, with the progress complete; usage counted one request per side and check', async () => {
    const s = await svc.call(`/api/compare/${jobId}`, { headers: { 'X-API-Key': key } });
    expect(s.status).to.equal(200);
    expect(s.body).to.include({ status: 'completed', error: null });
    expect(s.body.progress.done).to.equal(s.body.progress.total);
    expect(s.body.report).to.deep.equal(report);
    const usage = await svc.call('/api/usage', { headers: { 'X-API-Key': key } });
    expect(usage.body.calls_this_period, 'the comparison; status and usage calls are not metered').to.equal(12);
  });

  it('the signed webhook carries the outcome', async () => {
    const d = await until('the webhook delivery', () => deliveries[0]);
    const body = new Webhook(secret).verify(d.body, {
      'webhook-id': String(d.headers['webhook-id']),
      'webhook-timestamp': String(d.headers['webhook-timestamp']),
      'webhook-signature': String(d.headers['webhook-signature']),
    }) as any;
    expect(body).to.include({ job_id: jobId, status: 'completed' });
    expect(body.report.verdict).to.equal('regressed');
    // The job's status shows the delivery, as the screenshot queue's does.
    const status = await until('the status to show the delivery', async () => {
      const s = await svc.call(`/api/compare/${jobId}`, { headers: { 'X-API-Key': key } });
      return s.body.webhook?.state === 'delivered' ? s.body : undefined;
    });
    expect(status.webhook).to.deep.include({ url: receiverUrl, delivered: true, last_status: 204, last_error: null, next_attempt_at: null });
    expect(status.webhook.attempts.map((a: any) => a.status)).to.deep.equal([204]);
  });

  it('production against an identical copy: no regressions, and the trend picture holds both runs of the site', async () => {
    const queued = await svc.call('/api/compare', {
      method: 'POST',
      headers: { 'X-API-Key': key },
      json: { baseline_url: site.production.url, preview_url: site.twin.url, paths: ['/'], viewports: [{ width: 400, height: 300 }] },
    });
    expect(queued.status).to.equal(202);
    const done = await until('the second comparison', async () => {
      const s = await svc.call(`/api/compare/${queued.body.job_id}`, { headers: { 'X-API-Key': key } });
      return s.body.status === 'completed' ? s.body : undefined;
    }, 90_000, 200).then((status) => {
      expect(status.webhook, 'no webhook_url, no delivery').to.equal(null);
      return status.report;
    });
    expect(done.regressions).to.equal(0);
    expect(done.verdict).to.equal('unchanged');
    expect(done.results.map((r: any) => [r.check, r.status])).to.deep.equal([
      ['links', 'unchanged'], ['seo', 'unchanged'], ['perf', 'unchanged'], ['techstack', 'unchanged'], ['tls', 'unavailable'], ['visual', 'unchanged'],
    ]);
    expect(done.trend.runs).to.have.length(2);
    expect(done.trend.runs[1].preview).to.equal(done.health.preview);
    const png = await fetch(done.trend.image_url);
    expect(png.headers.get('content-type')).to.equal('image/png');
    const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).to.deep.equal([480, 200]);
  });

  it('a free key gets 402 saying how to get a paid tier; bad checks and paths get 400 naming the field', async () => {
    const free = await svc.newKey();
    const body = { baseline_url: site.production.url, preview_url: site.preview.url };
    const refused = await svc.call('/api/compare', { method: 'POST', headers: { 'X-API-Key': free }, json: body });
    expect(refused.status).to.equal(402);
    expect(refused.body.error).to.match(/paid tier \(starter, pro or business\).*operator/);
    const badCheck = await svc.call('/api/compare', { method: 'POST', headers: { 'X-API-Key': key }, json: { ...body, checks: ['links', 'lighthouse'] } });
    expect(badCheck.status).to.equal(400);
    expect(badCheck.body.error).to.match(/checks/);
    const badPath = await svc.call('/api/compare', { method: 'POST', headers: { 'X-API-Key': key }, json: { ...body, paths: ['//evil.example'] } });
    expect(badPath.status).to.equal(400);
    expect(badPath.body.error).to.match(/paths/);
    const other = await svc.call(`/api/compare/${jobId}`, { headers: { 'X-API-Key': free } });
    expect(other.status).to.equal(404);
  });

  it('quotas count a comparison as one request per side and check, in its headers too; a refused call (402, 429) counts nothing', async () => {
    const usage = async (k: string) => (await svc.call('/api/usage', { headers: { 'X-API-Key': k } })).body.calls_this_period as number;
    const free = await svc.newKey();
    const body = { baseline_url: site.production.url, preview_url: site.preview.url, checks: ['tls'] };
    expect((await svc.call('/api/compare', { method: 'POST', headers: { 'X-API-Key': free }, json: body })).status).to.equal(402);
    expect(await usage(free)).to.equal(0);

    const starter = await svc.newKey('starter'); // 15 requests a minute
    const six = await svc.call('/api/compare', { method: 'POST', headers: { 'X-API-Key': starter }, json: { ...body, checks: ['tls', 'seo', 'techstack'] } });
    expect(six.status, six.text).to.equal(202);
    expect(six.body.counted_requests).to.equal(6);
    expect(six.headers.get('ratelimit-remaining')).to.equal('9');
    const over = await svc.call('/api/compare', { method: 'POST', headers: { 'X-API-Key': starter }, json: { ...body, checks: ['links', 'seo', 'perf', 'techstack', 'tls'] } });
    expect(over.status).to.equal(429);
    expect(Number(over.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(await usage(starter)).to.equal(6);
  });
});
