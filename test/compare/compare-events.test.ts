import { expect } from 'chai';
import { UnrecoverableError, Worker, type ConnectionOptions } from 'bullmq';
import { compareKind } from '../../server/jobs/compare-job.js';
import { startTestService, type TestService } from '../support/service.js';
import { openEvents } from '../support/event-stream.js';

describe('GET /api/compare/:id/events, when the job does not end with a report', function () {
  this.timeout(60_000);
  let svc: TestService;
  let key: string;
  // No worker of ours: the jobs wait, or a stand-in worker fails them.
  before(async () => {
    svc = await startTestService();
    key = await svc.newKey('pro');
  });
  after(async () => svc?.close());

  const queue = async () => {
    const r = await svc.call('/api/compare', { method: 'POST', headers: { 'X-API-Key': key }, json: { baseline_url: 'http://127.0.0.1:9/', preview_url: 'http://127.0.0.1:9/', checks: ['tls'] } });
    expect(r.status, r.text).to.equal(202);
    return r.body as { job_id: string; events_url: string };
  };

  it('a job that expires while followed ends the stream with an error event: 404, not_found, saying why', async () => {
    const { job_id, events_url } = await queue();
    const stream = await openEvents(events_url, key);
    await (await svc.deps.compareJobs.queue()).remove(job_id);
    const last = (await stream.events()).at(-1);
    expect(last?.event).to.equal('error');
    expect(last?.data).to.include({ status: 404, code: 'not_found' });
    expect(last?.data.error).to.match(/expired.*24 hours/);
  });

  it('a job that fails ends the stream with an error event: 422, job_failed, with the reason', async () => {
    const { job_id, events_url } = await queue();
    const stream = await openEvents(events_url, key);
    const connection = svc.redisHandle.connection as ConnectionOptions;
    const failer = new Worker(compareKind.queue, async () => { throw new UnrecoverableError('the stand-in worker gave up'); }, { connection, prefix: `${svc.deps.config.REDIS_PREFIX}bull` });
    try {
      const last = (await stream.events()).at(-1);
      expect(last?.event).to.equal('error');
      expect(last?.data).to.include({ status: 422, code: 'job_failed' });
      expect(last?.data.error).to.match(/stand-in worker gave up/);
      const status = await svc.call(`/api/compare/${job_id}`, { headers: { 'X-API-Key': key } });
      expect(status.body).to.include({ status: 'failed', error: 'the stand-in worker gave up' });
    } finally {
      await failer.close();
    }
  });
});
