import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { deliverWebhook } from '../../server/jobs/webhooks/webhook-delivery.js';
import { createSafeHttp } from '../../server/net/safe-http.js';
import { createTargetPolicy } from '../../server/net/target-policy.js';

type Verify = (secret: string, headers: IncomingHttpHeaders, body: string, toleranceSeconds?: number) => boolean;

/** The README's verification code, exactly as printed, loaded as a module. */
async function readmeVerifier(dir: string): Promise<Verify> {
  const readme = readFileSync('README.md', 'utf8');
  const from = readme.indexOf('**Verifying a webhook.**');
  expect(from, 'the README has a webhook verification snippet').to.be.greaterThan(0);
  const code = /```js\n([\s\S]*?)```/.exec(readme.slice(from))![1];
  const file = path.join(dir, 'verify.mjs');
  await writeFile(file, code);
  return ((await import(pathToFileURL(file).href)) as { verifyWebhook: Verify }).verifyWebhook;
}

describe('README webhook verification snippet', () => {
  const secret = `whsec_${Buffer.from('a test secret of 24 bytes').toString('base64')}`;
  let dir: string;
  let server: http.Server;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'webhook-snippet-'));
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts a real delivery of the service and refuses a changed body, another secret and an old timestamp', async () => {
    const verify = await readmeVerifier(dir);
    const body = JSON.stringify({ job_id: 'j1', status: 'completed', note: 'ünïcode survives' });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const outcome = await deliverWebhook(
      { url, messageId: 'msg_j1', secret, body, timeoutMs: 5000 },
      { http: createSafeHttp({ policy: createTargetPolicy('true') }) },
    );
    expect(outcome).to.deep.equal({ status: 200, error: null });
    const [{ headers, body: raw }] = received;

    expect(verify(secret, headers, raw)).to.equal(true);
    expect(verify(secret, headers, raw.replace('completed', 'failed'))).to.equal(false);
    expect(verify(`whsec_${Buffer.from('another secret').toString('base64')}`, headers, raw)).to.equal(false);
    const stale = { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) };
    expect(verify(secret, stale, raw)).to.equal(false);
  });
});
