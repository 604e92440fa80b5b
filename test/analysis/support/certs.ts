import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SecureContextOptions, TlsOptions } from 'node:tls';
import { generate } from 'selfsigned';

const DAY = 86_400_000;

export interface TestCa {
  key: string;
  cert: string;
}

/** A throwaway CA for one test file; `subject` names it as a real issuer would be. */
export async function makeCa(subject: { commonName?: string; organizationName?: string } = {}): Promise<TestCa> {
  const names = [
    { name: 'commonName', value: subject.commonName ?? 'SiteLens Test CA' },
    { name: 'organizationName', value: subject.organizationName ?? 'SiteLens Tests' },
  ];
  const pems = await generate(names, {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 3650 * DAY),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

export interface LeafOptions {
  /** Host names in the SAN list. @default ['localhost'] */
  names?: string[];
  /** Days from now; negative for the past. @default -1 */
  fromDays?: number;
  /** @default 90 */
  toDays?: number;
  /** Signed by this CA; omitted means self-signed. */
  ca?: TestCa;
}

export async function makeLeaf(opts: LeafOptions = {}): Promise<{ key: string; cert: string }> {
  const names = opts.names ?? ['localhost'];
  const pems = await generate([{ name: 'commonName', value: names[0] }, { name: 'organizationName', value: 'Fixture Org' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() + (opts.fromDays ?? -1) * DAY),
    notAfterDate: new Date(Date.now() + (opts.toDays ?? 90) * DAY),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((value) => ({ type: 2 as const, value })) },
    ],
    ...(opts.ca ? { ca: opts.ca } : {}),
  });
  return { key: pems.private, cert: pems.cert };
}

/** An HTTPS server on 127.0.0.1 with the given certificate and TLS settings; resolves to its port. */
export async function startTlsServer(
  creds: { key: string; cert: string },
  tlsOptions: TlsOptions & SecureContextOptions = {},
  handler: https.ServerOptions['requestCert'] extends unknown ? Parameters<typeof https.createServer>[1] : never = (_req, res) => res.end('ok'),
): Promise<{ server: https.Server; port: number; close(): Promise<void> }> {
  const server = https.createServer({ ...creds, ...tlsOptions }, handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
