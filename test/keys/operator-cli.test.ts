import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startTestService, type TestService } from '../support/service.js';
import { sharedRedisUrl } from '../faults/support/service-process.js';
import { until } from '../support/wait.js';

const run = promisify(execFile);

describe('npm run keys (the operator command)', function () {
  this.timeout(60_000);
  let svc: TestService;

  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  /** Runs the command as an operator types it, against the test service's Redis and prefix. */
  const keys = async (args: string[], env: Record<string, string> = {}) => {
    const settings = { REDIS_URL: sharedRedisUrl(), REDIS_PREFIX: svc.deps.config.REDIS_PREFIX, ...env };
    return run('npm', ['run', '-s', 'keys', '--', ...args], { env: { ...process.env, ...settings } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
    );
  };

  it('create --tier business gives a key that the service accepts at once with the business quota', async () => {
    const r = await keys(['create', '--tier', 'business']);
    expect(r.code, r.stderr).to.equal(0);
    const created = JSON.parse(r.stdout) as { api_key: string; webhook_secret: string; tier: string; status: string };
    expect(created).to.include({ tier: 'business', status: 'active' });
    expect(created.webhook_secret).to.match(/^whsec_/);
    const usage = await svc.call('/api/usage', { headers: { 'X-API-Key': created.api_key } });
    expect(usage.body).to.include({ tier: 'business', daily_limit: 5000, verified: true, status: 'active' });
  });

  it('create --email takes the address as verified: a free key with 50 a day, active without a link', async () => {
    const r = await keys(['create', '--email', 'ops@example.com']);
    const created = JSON.parse(r.stdout) as { api_key: string };
    const usage = await svc.call('/api/usage', { headers: { 'X-API-Key': created.api_key } });
    expect(usage.body).to.include({ tier: 'free', daily_limit: 50, verified: true, status: 'active' });
  });

  it('list shows every key with its id, tier, status and e-mail, never the key or its secret', async () => {
    const plain = (JSON.parse((await keys(['create', '--tier', 'pro', '--email', 'listed@example.com'])).stdout) as { api_key: string; id: string; webhook_secret: string });
    const r = await keys(['list']);
    expect(r.code).to.equal(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith(plain.id)) ?? '';
    expect(row).to.match(/^\w{12}\s+pro\s+active\s+yes\s+1000\s+0\s+\S+\s+listed@example\.com$/);
    expect(r.stdout).not.to.include(plain.api_key);
    expect(r.stdout).not.to.include(plain.webhook_secret);
    expect(r.stdout).to.match(/^\d+ keys\n$/m);
  });

  it('activate lifts a suspension, but never activates an e-mail key whose address was not verified', async () => {
    const waiting = await svc.deps.keys.create('unverified@example.com');
    const r = await keys(['activate', waiting.record.id]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/^key \w{12} is not suspended: it waits for the verification link mailed to unverified@example\.com/);
    expect((await svc.deps.keys.findByHash(waiting.record.hash))?.status).to.equal('inactive');

    await keys(['suspend', waiting.record.id]);
    const lifted = await keys(['activate', waiting.record.id]);
    expect(JSON.parse(lifted.stdout)).to.include({ status: 'inactive', verified: false });

    const anonymous = await svc.newKey();
    await keys(['suspend', anonymous]);
    expect(JSON.parse((await keys(['activate', anonymous])).stdout)).to.include({ status: 'active' });
  });

  it('set-tier KEY pro raises the tier seen by /api/usage; suspend KEY reaches a service that has the key cached', async () => {
    const key = await svc.newKey();
    expect(JSON.parse((await keys(['set-tier', key, 'pro'])).stdout)).to.include({ tier: 'pro', verified: true, daily_limit: 1000 });
    expect((await svc.call('/api/usage', { headers: { 'X-API-Key': key } })).body).to.include({ tier: 'pro', status: 'active' });
    await keys(['suspend', key]);
    const status = await until('the suspension to reach the service', async () => {
      const s = (await svc.call('/api/usage', { headers: { 'X-API-Key': key } })).body.status;
      return s === 'active' ? undefined : s;
    }, 10_000, 100);
    expect(status).to.equal('suspended');
  });

  it('set-tier pro on an e-mail key waiting for its link marks it verified and active', async () => {
    const waiting = await svc.deps.keys.create('buyer@example.com');
    const r = await keys(['set-tier', waiting.plain, 'pro']);
    expect(JSON.parse(r.stdout)).to.include({ tier: 'pro', status: 'active', verified: true });
  });

  it('every error is one line on stderr ending in a newline, with exit 2 for bad input and 1 for the rest', async () => {
    const cases: Array<[string[], Record<string, string>, number, RegExp]> = [
      [['create', '--tier', 'gold'], {}, 2, /^TIER must be one of free, starter, pro, business, got "gold"\n$/],
      [['create', '--email', 'nope'], {}, 2, /^--email must be an e-mail address, got "nope"\n$/],
      [['show', 'sl_unknown'], {}, 1, /^no key matches sl_unknown\n$/],
      [['list'], { REDIS_URL: 'redis://:s3cret@127.0.0.1:1' }, 1, /^cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1 \(connect ECONNREFUSED[^)]*\); start the service first, or set REDIS_URL to the service's\n$/],
      [['list'], { LOG_LEVEL: 'loud' }, 2, /^Invalid configuration: LOG_LEVEL: [^\n]+\n$/],
      [['frobnicate'], {}, 2, /^usage: npm run keys -- <command>/],
    ];
    for (const [args, env, code, message] of cases) {
      const r = await keys(args, env);
      expect(r.code, args.join(' ')).to.equal(code);
      expect(r.stderr, args.join(' ')).to.match(message);
      expect(r.stderr.endsWith('\n'), args.join(' ')).to.equal(true);
    }
  });
});
