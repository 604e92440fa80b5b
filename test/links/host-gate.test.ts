import { expect } from 'chai';
import type http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { makeCa, makeLeaf } from '../analysis/support/certs.js';
import { HostGate } from '../../server/links/host-gate.js';
import { checkSite, linkNet } from '../../server/links/site-check.js';
import { createSafeHttp } from '../../server/net/safe-http.js';
import { createTargetPolicy } from '../../server/net/target-policy.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { until } from '../support/wait.js';
import { html } from './fixture-site.js';

/** Starts `n` tasks on `host` that wait for `release`; resolves once the gate has let `started` of them in. */
function hold(gate: HostGate, host: string, n: number, priority: 'open' | 'check', order: string[], label: string) {
  let release = () => {};
  const gateOpen = new Promise<void>((r) => (release = r));
  const runs = Array.from({ length: n }, (_, i) =>
    gate.run(
      host,
      async () => {
        order.push(`${label}${i}`);
        await gateOpen;
      },
      priority,
    ),
  );
  return { release, done: Promise.all(runs) };
}

describe('HostGate (per-host limits that adapt to how the host answers)', () => {
  const now = () => performance.now();

  it('unit: a host starts at the initial limit and grows by one per fast answer, up to the cap', () => {
    const gate = new HostGate({ perHost: 20, initialPerHost: 16 });
    gate.answered('a', { kind: 'answered', ms: 50, sentAt: now() }); // unknown host: nothing to adapt yet
    expect(gate.limitOf('a')).to.equal(16);
    void gate.run('a', async () => undefined);
    for (let i = 0; i < 10; i++) gate.answered('a', { kind: 'answered', ms: 50, sentAt: now() });
    expect(gate.limitOf('a')).to.equal(20);
  });

  it('unit: an answer far slower than the host\'s fastest (a host queueing our requests) does not raise the limit', () => {
    const gate = new HostGate({ perHost: 64, initialPerHost: 16 });
    void gate.run('a', async () => undefined);
    gate.answered('a', { kind: 'answered', ms: 150, sentAt: now() });
    expect(gate.limitOf('a')).to.equal(17);
    gate.answered('a', { kind: 'answered', ms: 700, sentAt: now() }); // over 4× 150 ms
    expect(gate.limitOf('a')).to.equal(17);
    gate.answered('a', { kind: 'answered', ms: 90, sentAt: now() }); // under 100 ms counts as fast whatever the fastest
    expect(gate.limitOf('a')).to.equal(18);
  });

  it('unit: a slow answer holds the limit; a timeout halves it once per burst, not once per request of the burst', () => {
    const gate = new HostGate({ perHost: 32, initialPerHost: 16 });
    void gate.run('a', async () => undefined);
    const burst = now();
    gate.answered('a', { kind: 'answered', ms: 4_000, sentAt: burst });
    expect(gate.limitOf('a')).to.equal(16);
    for (let i = 0; i < 5; i++) gate.answered('a', { kind: 'failed', sentAt: burst });
    expect(gate.limitOf('a')).to.equal(8);
    gate.answered('a', { kind: 'failed', sentAt: now() + 1 }); // sent under the new limit
    expect(gate.limitOf('a')).to.equal(4);
    // Cut once: one more per round trip (4 fast answers at a limit of 4), no longer one per answer.
    for (let i = 0; i < 3; i++) gate.answered('a', { kind: 'answered', ms: 50, sentAt: now() });
    expect(gate.limitOf('a')).to.equal(4);
    gate.answered('a', { kind: 'answered', ms: 50, sentAt: now() });
    expect(gate.limitOf('a')).to.equal(5);
  });

  it('unit: a 429 halves the limit and pauses the host for its Retry-After', () => {
    const gate = new HostGate({ perHost: 32, initialPerHost: 16 });
    gate.backoff('a', 5_000, now());
    expect(gate.limitOf('a')).to.equal(8);
    expect(gate.pausedFor('a')).to.be.within(4_000, 5_000);
    expect(gate.pausedFor('b')).to.equal(0);
  });

  it('unit: requests that open more work go before waiting link checks, whatever order they came in', async () => {
    const gate = new HostGate({ perHost: 4, initialPerHost: 4 });
    const order: string[] = [];
    const first = hold(gate, 'a', 2, 'check', order, 'busy');
    const checks = hold(gate, 'a', 3, 'check', order, 'check');
    const pages = hold(gate, 'a', 2, 'open', order, 'page');
    await until('the first four tasks to start', () => (order.length === 4 ? true : undefined));
    expect(order).to.deep.equal(['busy0', 'busy1', 'check0', 'check1']);
    first.release();
    await first.done;
    pages.release();
    checks.release();
    await Promise.all([pages.done, checks.done]);
    expect(order.slice(4, 6)).to.deep.equal(['page0', 'page1']);
    expect(order.slice(6)).to.deep.equal(['check2']);
  });

  it('unit: requests that open more work hold at most 3/4 of the limit, so hanging pages cannot starve the checks', async () => {
    const gate = new HostGate({ perHost: 4, initialPerHost: 4 });
    const order: string[] = [];
    const first = hold(gate, 'a', 4, 'check', order, 'busy');
    await until('the first four tasks to start', () => (order.length === 4 ? true : undefined));
    const pages = hold(gate, 'a', 5, 'open', order, 'page');
    const checks = hold(gate, 'a', 2, 'check', order, 'check');
    first.release();
    await until('four more tasks to start', () => (order.length === 8 ? true : undefined));
    expect(order.slice(4)).to.deep.equal(['page0', 'page1', 'page2', 'check0']);
    pages.release();
    checks.release();
    await Promise.all([pages.done, checks.done]);
  });
});

describe('Link checks against one host, counted by the host', () => {
  let site: FixtureServer;
  let inFlight = 0;
  let mostInFlight = 0;
  let refusals = 0;
  /** Above this many requests in flight, /strict/ images answer 503 with Retry-After: 0. */
  const STRICT_LIMIT = 6;
  const images = (prefix: string, n: number) => html(Array.from({ length: n }, (_, i) => `<img src="/${prefix}/${i}.png">`).join(''));

  before(async () => {
    site = await startFixtureServer((req, res) => {
      const path = req.url ?? '/';
      if (path === '/fast') return pageOf(res, images('fast', 150));
      if (path === '/strict') return pageOf(res, images('strict', 60));
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (path.startsWith('/strict/') && inFlight > STRICT_LIMIT) {
        refusals++;
        inFlight--;
        res.writeHead(503, { 'retry-after': '0' });
        return void res.end();
      }
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end();
      }, 20);
    });
  });
  after(() => site?.close());

  const pageOf = (res: http.ServerResponse, body: string) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(body);
  };

  const check = async (path: string) => {
    const net = createSafeHttp({ policy: createTargetPolicy('true'), connections: 32 });
    try {
      return await checkSite(
        { url: `${site.url}${path}`, mode: 'quick', maxPages: 1, maxDurationMs: 30_000, render: false, fragments: 'ignore', gate: {} },
        { ...linkNet(net), timeoutMs: 5_000, concurrency: 64, hostConcurrency: 32 },
      );
    } finally {
      await net.close();
    }
  };

  it('scenario: a host that answers fast gets more than the initial 16 requests at once, never more than the cap of 32', async () => {
    mostInFlight = 0;
    const report = await check('/fast');
    expect(report.broken_links).to.deep.equal([]);
    expect(report.total_links_checked).to.equal(150);
    expect(mostInFlight).to.be.greaterThan(16);
    expect(mostInFlight).to.be.at.most(32);
  });

  it('scenario: a host that answers 503 when pressed gets fewer requests at once, and every link is still found working', async () => {
    refusals = 0;
    const report = await check('/strict');
    expect(report.broken_links).to.deep.equal([]);
    expect(report.total_links_checked).to.equal(60);
    expect(refusals).to.be.greaterThan(0);
    // Without the cuts the first bursts past 6 would be refused again and again (3 tries a link).
    expect(refusals).to.be.below(30);
  });
});

describe('Link checks against a host that offers HTTP/2', () => {
  it('scenario: every check of a page\'s 40 links goes over HTTP/2 streams of one connection', async () => {
    const ca = await makeCa();
    const leaf = await makeLeaf({ names: ['localhost'], ca });
    const versions: string[] = [];
    let sessions = 0;
    const server = http2.createSecureServer({ ...leaf, allowHTTP1: true }, (req, res) => {
      versions.push(req.httpVersion);
      const body = req.url === '/' ? html(Array.from({ length: 40 }, (_, i) => `<img src="/i/${i}.png">`).join('')) : '';
      res.writeHead(200, { 'content-type': req.url === '/' ? 'text/html' : 'image/png' });
      res.end(req.method === 'HEAD' ? '' : body);
    });
    server.on('session', () => sessions++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const net = createSafeHttp({ policy: createTargetPolicy('true'), ca: [ca.cert] });
    try {
      const { port } = server.address() as AddressInfo;
      const report = await checkSite(
        { url: `https://localhost:${port}/`, mode: 'quick', maxPages: 1, maxDurationMs: 20_000, render: false, fragments: 'ignore', gate: {} },
        { ...linkNet(net), timeoutMs: 5_000 },
      );
      expect(report.total_links_checked).to.equal(40);
      expect(report.broken_links).to.deep.equal([]);
      expect(new Set(versions)).to.deep.equal(new Set(['2.0']));
      expect(sessions).to.equal(1);
    } finally {
      await net.close();
      server.close();
    }
  });
});
