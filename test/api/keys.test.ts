import { expect } from 'chai';
import { startSmtpReceiver } from '../support/smtp.js';
import { startTestService, type TestService } from '../support/service.js';

describe('API keys', () => {
  let svc: TestService;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  before(async () => {
    smtp = await startSmtpReceiver();
    svc = await startTestService({ SMTP_URL: smtp.url, MAIL_FROM: 'keys@service.test' });
  });
  after(async () => {
    await svc.close();
    await smtp.close();
  });

  it('POST /api/keys without email, returns an active key with 20 per day and runnable quick_start lines', async () => {
    const res = await svc.call('/api/keys', { method: 'POST' });

    expect(res.status).to.equal(200);
    expect(res.body.api_key).to.match(/^sl_[\w-]{20,}$/);
    expect(res.body.status).to.equal('active');
    expect(res.body.rate_limit).to.equal('20 requests per day');
    expect(res.body.quick_start.usage).to.equal(`curl -H "X-API-Key: ${res.body.api_key}" "${svc.url}/api/usage"`);
    const usage = await svc.call('/api/usage', { headers: { 'X-API-Key': res.body.api_key } });
    expect(usage.status).to.equal(200);
    expect(usage.body).to.include({ status: 'active', tier: 'free', daily_limit: 20, calls_this_period: 0, rate_limit_remaining_today: 20 });
  });

  it('stores only a hash of the key', async () => {
    const key = await svc.newKey();
    const dump = await svc.deps.redis.keys(`${svc.deps.config.REDIS_PREFIX}*`);
    const values = await Promise.all(dump.filter((k) => k.startsWith(`${svc.deps.config.REDIS_PREFIX}key:`)).map((k) => svc.deps.redis.hgetall(k)));
    expect(JSON.stringify(dump) + JSON.stringify(values)).not.to.include(key);
  });

  it('POST /api/keys with email, mails a link that activates the key at 50 per day', async () => {
    const mail = smtp.next();
    const created = await svc.call('/api/keys', { method: 'POST', json: { email: 'dev@example.com' } });
    expect(created.status).to.equal(200);
    expect(created.body.status).to.equal('inactive');
    const key = created.body.api_key as string;

    const inactive = await svc.call('/api/keys?action=info', { headers: { Authorization: `Bearer ${key}` } });
    expect(inactive.body.status).to.equal('inactive');

    const received = await mail;
    expect(received.to).to.deep.equal(['dev@example.com']);
    const token = received.text.match(/token=([\w-]+)/)![1];
    const ttl = await svc.deps.redis.ttl(`${svc.deps.config.REDIS_PREFIX}verify:${token}`);
    expect(ttl, 'the link expires after 24 hours').to.be.within(24 * 3600 - 60, 24 * 3600);
    const link = received.text.match(/http:\/\/127\.0\.0\.1:\d+\/api\/verify\?token=[\w-]+/)?.[0];
    expect(link, 'verification link in the mail').to.be.a('string');

    const page = await fetch(link!);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.include('text/html');
    expect(await page.text()).to.include('50 requests per day');

    const usage = await svc.call(`/api/usage?key=${key}`);
    expect(usage.body).to.include({ status: 'active', tier: 'free', daily_limit: 50, verified: true });
    const again = await fetch(link!);
    expect(again.status, 'a token works once').to.equal(400);
  });

  it('GET /api/verify, with a bogus or expired token, answers 400 JSON', async () => {
    const bogus = await svc.call('/api/verify?token=not-a-token');
    expect(bogus.status).to.equal(400);
    expect(bogus.body.error).to.match(/invalid or expired/);

    const mail = smtp.next();
    await svc.call('/api/keys', { method: 'POST', json: { email: 'late@example.com' } });
    const token = (await mail).text.match(/token=([\w-]+)/)![1];
    // 24 hours pass: the token's TTL runs out.
    await svc.deps.redis.del(`${svc.deps.config.REDIS_PREFIX}verify:${token}`);
    const expired = await svc.call(`/api/verify?token=${token}`);
    expect(expired.status).to.equal(400);

    const missing = await svc.call('/api/verify');
    expect(missing.status).to.equal(400);
    expect(missing.body.error).to.equal('token is required');
  });

  it('GET /api/verify, with VERIFY_REDIRECT_URL set, redirects with 302', async () => {
    const smtp2 = await startSmtpReceiver();
    const other = await startTestService({ SMTP_URL: smtp2.url, VERIFY_REDIRECT_URL: 'https://docs.example/verified' });
    try {
      const mail = smtp2.next();
      await other.call('/api/keys', { method: 'POST', json: { email: 'r@example.com' } });
      const token = (await mail).text.match(/token=([\w-]+)/)![1];
      const res = await fetch(`${other.url}/api/verify?token=${token}`, { redirect: 'manual' });
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.equal('https://docs.example/verified');
    } finally {
      await other.close();
      await smtp2.close();
    }
  });

  it('POST /api/keys, with an invalid email, answers 400 naming the field', async () => {
    const res = await svc.call('/api/keys', { method: 'POST', json: { email: 'nope' } });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('email must be an email address, got "nope"');
  });

  it('GET /api/keys?action=info, reports status without the key itself', async () => {
    const key = await svc.newKey();
    const res = await svc.call(`/api/keys?action=info&key=${key}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ status: 'active', tier: 'free', daily_limit: 20 });
    expect(JSON.stringify(res.body)).not.to.include(key);
    const noAction = await svc.call(`/api/keys?key=${key}`);
    expect(noAction.status).to.equal(400);
    expect(noAction.body.error).to.match(/^action /);
  });

  it('operator changes: a paid tier marks the key verified, suspension gives 403', async () => {
    const key = await svc.newKey('pro');
    const usage = await svc.call('/api/usage', { headers: { 'X-API-Key': key } });
    expect(usage.body).to.include({ tier: 'pro', daily_limit: 1000, verified: true });
    await svc.setKey(key, { status: 'suspended' });
    const info = await svc.call(`/api/keys?action=info&key=${key}`);
    expect(info.body.status).to.equal('suspended');
  });

  it('POST /api/keys and GET /api/health answer without _notice: the first just issued a key, the second would point to itself', async () => {
    const created = await svc.call('/api/keys', { method: 'POST' });
    expect(created.body).to.have.property('api_key');
    expect(created.body).not.to.have.property('_notice');
    const health = await svc.call('/api/health');
    expect(health.body).to.have.property('status');
    expect(health.body).not.to.have.property('_notice');
  });

  it('POST /api/keys with email, on an instance without SMTP_URL, says no mail was sent and where the link is', async () => {
    const mailless = await startTestService();
    try {
      const r = await mailless.call('/api/keys', { method: 'POST', json: { email: 'dev@example.com' } });
      expect(r.status).to.equal(200);
      expect(r.body.status).to.equal('inactive');
      expect(r.body.message).not.to.match(/^A verification link was sent/);
      expect(r.body.message).to.match(/^This instance sends no mail, so no link was sent to dev@example\.com: its operator finds the verification link in the service's log/);
    } finally {
      await mailless.close();
    }
  });
});
