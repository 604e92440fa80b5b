import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort, startTestService, type TestService } from '../support/service.js';
import { makeCa, makeLeaf, startTlsServer, type TestCa } from './support/certs.js';

describe('GET /api/ssl', function () {
  let svc: TestService;
  let ca: TestCa;
  let dir: string;
  let key: string;
  const closers: Array<() => Promise<void>> = [];

  before(async function () {
    ca = await makeCa();
    dir = await mkdtemp(path.join(os.tmpdir(), 'ssl-test-'));
    const caFile = path.join(dir, 'ca.pem');
    await writeFile(caFile, ca.cert);
    svc = await startTestService({ TLS_EXTRA_CA_FILE: caFile, FETCH_TIMEOUT_MS: '1500' });
    key = await svc.newKey('business');
  });

  after(async function () {
    for (const close of closers) await close();
    await svc?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const serve = async (...args: Parameters<typeof startTlsServer>) => {
    const srv = await startTlsServer(...args);
    closers.push(srv.close);
    return srv.port;
  };
  const check = (domain: string) => svc.call(`/api/ssl?domain=${encodeURIComponent(domain)}`, { headers: { 'X-API-Key': key } });

  it('when the certificate is trusted and TLS 1.3 runs with a 256-bit cipher, grades A+ and reports every field', async function () {
    const port = await serve(await makeLeaf({ ca, names: ['localhost', 'www.localhost'] }));

    const r = await check(`localhost:${port}`);

    expect(r.status, r.text).to.equal(200);
    const b = r.body;
    expect(b).to.include({ domain: 'localhost', port, valid: true, grade: 'A+', grade_before_caps: 'A+', protocol: 'TLSv1.3' });
    expect(b.grade_issues).to.deep.equal([]);
    expect(b.subject).to.deep.equal({ common_name: 'localhost', organization: 'Fixture Org' });
    expect(b.issuer).to.deep.equal({ common_name: 'SiteLens Test CA', organization: 'SiteLens Tests' });
    expect(b.validity.days_remaining).to.be.within(88, 90);
    expect(Date.parse(b.validity.issued)).to.be.below(Date.now());
    expect(Date.parse(b.validity.expires)).to.be.above(Date.now());
    expect(b.subject_alt_names).to.deep.equal(['localhost', 'www.localhost']);
    expect(b.cipher.bits).to.equal(256);
    expect(b.cipher.name).to.be.a('string').and.not.empty;
    expect(b.serial_number).to.match(/^[0-9A-F]+$/);
    expect(b.trust).to.deep.equal({ chain_trusted: true, hostname_matches: true, self_signed: false, error: null });
    expect(b.connection_time_ms).to.be.a('number').and.above(0);
    expect(Number.isNaN(Date.parse(b.timestamp))).to.equal(false);
    expect(b).to.not.have.property('_notice');
  });

  it('when the server allows only TLS 1.2 with a strong cipher, grades A and says how to reach A+', async function () {
    const port = await serve(await makeLeaf({ ca }), { maxVersion: 'TLSv1.2' });

    const r = await check(`localhost:${port}`);

    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ protocol: 'TLSv1.2', grade: 'A', valid: true });
    expect(r.body.grade_issues.join(' ')).to.match(/enable TLS 1\.3/);
  });

  it('when the server speaks only TLS 1.1, grades C naming the deprecated protocol', async function () {
    const port = await serve(await makeLeaf({ ca }), { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' });

    const r = await check(`localhost:${port}`);

    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ protocol: 'TLSv1.1', grade: 'C' });
    expect(r.body.grade_issues.join(' ')).to.match(/TLS 1\.1 negotiated/);
  });

  it('when the certificate expires in 3 days, grades B with the expiry cap and stays valid', async function () {
    const port = await serve(await makeLeaf({ ca, toDays: 3.5 }));

    const r = await check(`localhost:${port}`);

    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ grade: 'B', grade_before_caps: 'A+', valid: true });
    expect(r.body.validity.days_remaining).to.equal(3);
    expect(r.body.grade_issues.join(' ')).to.match(/expires in 3 day\(s\).*capped at B/);
  });

  it('when the certificate expired, grades F and is not valid', async function () {
    const port = await serve(await makeLeaf({ ca, fromDays: -60, toDays: -2 }));

    const r = await check(`localhost:${port}`);

    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ grade: 'F', valid: false });
    expect(r.body.validity.days_remaining).to.be.below(0);
    expect(r.body.trust.error).to.equal('CERT_HAS_EXPIRED');
    expect(r.body.grade_issues.join(' ')).to.match(/expired .*capped at F/);
  });

  it('when the certificate is self-signed, caps the grade at C and is not valid', async function () {
    const port = await serve(await makeLeaf());

    const r = await check(`localhost:${port}`);

    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ grade: 'C', grade_before_caps: 'A+', valid: false });
    expect(r.body.trust).to.include({ self_signed: true, chain_trusted: false });
    expect(r.body.grade_issues.join(' ')).to.match(/self-signed.*capped at C/);
  });

  it('when the certificate names another host, caps the grade at C for the mismatch', async function () {
    const port = await serve(await makeLeaf({ ca, names: ['other.example'] }));

    const r = await check(`localhost:${port}`);

    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ grade: 'C', valid: false });
    expect(r.body.trust).to.include({ hostname_matches: false, chain_trusted: true });
    expect(r.body.grade_issues.join(' ')).to.match(/does not cover this host name.*capped at C/);
  });

  it('when the port is closed, answers 502 saying the connection was refused', async function () {
    const port = await freePort();

    const r = await check(`localhost:${port}`);

    expect(r.status).to.equal(502);
    expect(r.body.error).to.match(/refused/);
  });

  it('when the port speaks plain HTTP, answers 502 saying so without OpenSSL internals', async function () {
    const plain = http.createServer((_req, res) => res.end('plain'));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => plain.close(() => r())));
    const { port } = plain.address() as net.AddressInfo;

    const r = await check(`localhost:${port}`);

    expect(r.status).to.equal(502);
    expect(r.body.error).to.match(/does not speak TLS, perhaps plain HTTP/);
    expect(r.body.error).not.to.match(/SSL routines|deps\/openssl/);
  });

  it('when the server accepts TCP but never answers the handshake, answers 504', async function () {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => {
      for (const s of sockets) s.destroy();
      silent.close(() => r());
    }));
    const { port } = silent.address() as net.AddressInfo;

    const r = await check(`localhost:${port}`);

    expect(r.status).to.equal(504);
    expect(r.body.error).to.match(/did not answer in time/);
  });

  it('when the domain is not a host name, answers 400 naming the parameter', async function () {
    const r = await check('not a host!');

    expect(r.status).to.equal(400);
    expect(r.body.error).to.match(/^domain /);
  });

  it('when private targets are refused, answers 400 for a loopback domain', async function () {
    const strict = await startTestService({ ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const r = await strict.call('/api/ssl?domain=127.0.0.1:443');
      expect(r.status).to.equal(400);
      expect(r.body.error).to.match(/target refused/);
    } finally {
      await strict.close();
    }
  });
});
