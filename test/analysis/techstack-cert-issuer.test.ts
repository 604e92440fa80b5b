import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { issuerNames } from '../../server/techstack/cert-issuer.js';
import { startTestService, type TestService } from '../support/service.js';
import { makeCa, makeLeaf, startTlsServer } from './support/certs.js';
import { html, startFixtureSite } from './support/fixture-site.js';

/** The data's `certIssuer` rules ("Let's Encrypt", "DigiCert", …) read the issuer of the site's certificate. */
describe('GET /api/techstack, certIssuer rules', function () {
  let svc: TestService;
  let secure: Awaited<ReturnType<typeof startTlsServer>>;
  let plain: Awaited<ReturnType<typeof startFixtureSite>>;
  let dir: string;
  let key: string;

  before(async function () {
    // Issued as Let's Encrypt issues: O=Let's Encrypt, CN=R3.
    const ca = await makeCa({ organizationName: "Let's Encrypt", commonName: 'R3' });
    dir = await mkdtemp(path.join(os.tmpdir(), 'issuer-test-'));
    await writeFile(path.join(dir, 'ca.pem'), ca.cert);
    secure = await startTlsServer(await makeLeaf({ ca }), {}, (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>secure</p>'));
    plain = await startFixtureSite({ '/': html('<p>plain</p>') });
    svc = await startTestService({ TLS_EXTRA_CA_FILE: path.join(dir, 'ca.pem') });
    key = await svc.newKey('business');
  });
  after(async function () {
    await svc?.close();
    await secure?.close();
    await plain?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const detect = (url: string) => svc.call(`/api/techstack?url=${encodeURIComponent(url)}`, { headers: { 'X-API-Key': key } });
  const found = (body: any) => Object.values(body.technologies as Record<string, Array<{ name: string; evidence: Array<{ type: string; value: string }> }>>).flat();

  it("an https site whose certificate Let's Encrypt issued lists Let's Encrypt, with the issuer as its evidence", async function () {
    const r = await detect(`https://localhost:${secure.port}/`);

    expect(r.status, r.text).to.equal(200);
    const le = found(r.body).find((t) => t.name === "Let's Encrypt");
    expect(le, JSON.stringify(r.body.technologies)).to.not.equal(undefined);
    expect(le!.evidence.map((e) => [e.type, e.value])).to.deep.include(['cert_issuer', "Let's Encrypt"]);
  });

  it('an http site has no certificate to read: no issuer is listed', async function () {
    const r = await detect(`${plain.url}/`);

    expect(r.status, r.text).to.equal(200);
    expect(found(r.body).some((t) => t.evidence.some((e) => e.type === 'cert_issuer'))).to.equal(false);
  });

  it('issuerNames reads the organisations, then the common name, of a printed issuer', function () {
    expect(issuerNames("C=US\nO=Let's Encrypt\nCN=R3")).to.deep.equal(["Let's Encrypt", 'R3']);
    expect(issuerNames('C=GB\nST=Greater Manchester\nO=Sectigo Limited\nCN=Sectigo RSA Domain Validation Secure Server CA')).to.deep.equal([
      'Sectigo Limited',
      'Sectigo RSA Domain Validation Secure Server CA',
    ]);
    expect(issuerNames('CN=Only A Name')).to.deep.equal(['Only A Name']);
    // As the TLS report names it: the first organisation only.
    expect(issuerNames('O=First Org\nO=Second Org\nCN=Issuing CA')).to.deep.equal(['First Org', 'Issuing CA']);
  });
});
