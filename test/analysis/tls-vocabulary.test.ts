import { expect } from 'chai';
import net from 'node:net';
import { startTestService, type TestService } from '../support/service.js';
import { makeLeaf, startTlsServer } from './support/certs.js';

const page = '<!doctype html><html lang="en"><title>self-signed</title><meta name="description" content="A page behind a self-signed certificate."><h1>hi</h1></html>';
const untrusted = 'the TLS handshake failed (the certificate is not from a trusted authority: self-signed, or issued by an unknown CA)';

/** One certificate, one verdict: every check that fetches or renders the page says the same of it. */
describe('a self-signed certificate, through every API that loads the page', function () {
  this.timeout(120_000);
  let svc: TestService;
  let tls: Awaited<ReturnType<typeof startTlsServer>>;
  let key: string;
  let host: string;

  before(async () => {
    tls = await startTlsServer(await makeLeaf({ names: ['localhost'] }), {}, (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
    host = `localhost:${tls.port}`;
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc.close();
    await tls.close();
  });

  const get = (path: string) => svc.call(path, { headers: { 'X-API-Key': key } });
  const url = () => encodeURIComponent(`https://${host}/`);

  it('tech stack and SEO (fetched and rendered), perf and screenshot: 502, one message without Node\'s or Chromium\'s internals', async () => {
    const answers: Record<string, string> = {};
    for (const path of ['/api/techstack?', '/api/techstack?render=true&', '/api/seo?', '/api/seo?render=true&', '/api/perf?', '/api/screenshot?full_page=false&']) {
      const r = await get(`${path}url=${url()}`);
      answers[path] = `${r.status} ${r.body?.error}`;
    }
    for (const [path, answer] of Object.entries(answers)) expect(answer, path).to.equal(`502 ${host} is unreachable: ${untrusted}`);
  });

  it('GET /api/deadlinks says the same of its start page', async () => {
    const r = await get(`/api/deadlinks?mode=quick&url=${url()}`);
    expect(r.status).to.equal(502);
    expect(r.body.error).to.include(untrusted);
  });

  it('GET /api/audit?seo=true: the page parts fail with that message, and the TLS part says why (self-signed, C)', async () => {
    const r = await get(`/api/audit?seo=true&url=${url()}`);
    expect(r.status).to.equal(200);
    for (const part of ['techstack', 'perf', 'seo']) expect(r.body[part], part).to.deep.equal({ error: untrusted, kind: 'tls' });
    expect(r.body.ssl.grade).to.equal('C');
    expect(r.body.ssl.trust.self_signed).to.equal(true);
    expect(r.body.summary.parts_ok).to.deep.equal(['ssl']);
  });
});

describe('GET /api/ssl, when the server takes the connection and never handshakes', function () {
  let svc: TestService;
  let silent: net.Server;
  const sockets = new Set<net.Socket>();

  before(async () => {
    silent = net.createServer((s) => void sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    svc = await startTestService({ FETCH_TIMEOUT_MS: '1500' });
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    silent.close();
    await svc.close();
  });

  it('answers 504 naming the host and port the caller gave, and the time waited', async () => {
    const port = (silent.address() as net.AddressInfo).port;
    const key = await svc.newKey('business');
    const r = await svc.call(`/api/ssl?domain=127.0.0.1:${port}`, { headers: { 'X-API-Key': key } });
    expect(r.status).to.equal(504);
    expect(r.body.error).to.match(new RegExp(`^127\\.0\\.0\\.1:${port} did not answer in time: timed out \\(the TLS handshake did not complete within \\d+ ms\\)$`));
  });
});
