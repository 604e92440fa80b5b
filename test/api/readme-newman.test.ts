import { expect } from 'chai';
import { execFile } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { promisify } from 'node:util';
import { makeLeaf } from '../analysis/support/certs.js';
import { startTestService, type TestService } from '../support/service.js';

const run = promisify(execFile);

const pages: Record<string, [string, string]> = {
  '/': ['text/html; charset=utf-8', '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Your site</title><meta name="description" content="The site a reader of the README points newman at."></head><body><h1>Your site</h1><a href="/about">About</a></body></html>'],
  '/about': ['text/html; charset=utf-8', '<!doctype html><html lang="en"><title>About</title><h1>About</h1><a href="/">Home</a></html>'],
};

/**
 * A site on one loopback port that speaks HTTP and HTTPS (the first byte tells them apart), as
 * a real site answers on both: the collection's pages and its TLS check then share one host.
 */
async function startSite() {
  const handle: http.RequestListener = (req, res) => {
    const page = pages[(req.url ?? '/').split('?')[0]];
    if (page) res.writeHead(200, { 'content-type': page[0] }).end(page[1]);
    else res.writeHead(404).end('not found');
  };
  const plain = http.createServer(handle);
  const secure = https.createServer(await makeLeaf({ names: ['localhost'] }), handle);
  const sockets = new Set<net.Socket>();
  const door = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('data', (first) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit('connection', socket); // 0x16: a TLS handshake record
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((r) => door.listen(0, '127.0.0.1', () => r()));
  return {
    port: (door.address() as net.AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => door.close(r));
    },
  };
}

describe('the README\'s newman command', function () {
  this.timeout(300_000);
  let svc: TestService;
  let site: Awaited<ReturnType<typeof startSite>>;

  before(async () => {
    site = await startSite();
    svc = await startTestService({}, { workers: true });
  });
  after(async () => {
    await svc.close();
    await site.close();
  });

  it('newman run BASE/postman.json --env-var apiKey=KEY --env-var targetUrl=URL passes every assertion, the clip image checked, verify skipped without a token', async () => {
    const key = await svc.newKey('business');
    const args = ['run', `${svc.url}/postman.json`, '--env-var', `apiKey=${key}`, '--env-var', `targetUrl=http://localhost:${site.port}/`, '--timeout-request', '120000', '--color', 'off'];
    const { code, stdout } = await run('node_modules/.bin/newman', args, { maxBuffer: 16 * 1024 * 1024 }).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
    expect(code, stdout.slice(-4000)).to.equal(0);
    // newman's summary table: the assertions row, executed and failed.
    const assertions = /│\s+assertions\s+│\s+(\d+)\s+│\s+(\d+)\s+│/.exec(stdout);
    expect(assertions?.[2], stdout.slice(-4000)).to.equal('0');
    expect(Number(assertions?.[1])).to.be.greaterThan(30);
    expect(stdout).to.match(/✓ {2}the image is the clip region/);
    const verify = /↳ Activate an email key\n((?:(?!↳)[\s\S])*)/.exec(stdout)?.[1] ?? '';
    expect(verify, 'the verify request is skipped, saying why').to.match(/skipped; run with --env-var/);
    expect(verify).not.to.match(/GET http/);
  });
});
