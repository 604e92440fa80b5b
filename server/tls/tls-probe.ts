import type { X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import type { TargetPolicy } from '../net/target-policy.js';
import { clientContext } from './trust-store.js';

export interface TlsProbeOptions {
  host: string;
  /** @default 443 */
  port?: number;
  /** Handshake deadline (connect + TLS), in ms. @default 10000 */
  timeoutMs?: number;
}

export interface TlsProbeDeps {
  policy: TargetPolicy;
  /** Trusted CA certificates (PEM); undefined means Node's default store. */
  ca?: readonly string[];
}

/** The facts of one handshake, before any judgement. */
export interface TlsProbeResult {
  protocol: string;
  cipher: { name: string; standardName: string };
  cert: X509Certificate;
  /** OpenSSL's chain verdict: null when the chain is trusted and in date. */
  chainError: string | null;
  /** Host-name mismatch message, or null when the certificate covers the host. */
  hostnameError: string | null;
  connectionTimeMs: number;
  remoteAddress: string;
}

/**
 * One real handshake with SNI to `host:port`. Accepts every certificate (verdicts are
 * read afterwards) and protocols down to TLS 1.0 so that weak servers can be graded.
 * The address is checked by the target policy (literals here, names at lookup).
 */
export function probeTls(opts: TlsProbeOptions, deps: TlsProbeDeps): Promise<TlsProbeResult> {
  const { host, port = 443, timeoutMs = 10_000 } = opts;
  const bare = host.replace(/^\[|\]$/g, '');
  deps.policy.assertUrl(`https://${net.isIPv6(bare) ? `[${bare}]` : bare}:${port}/`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: bare,
      port,
      servername: net.isIP(bare) ? undefined : bare,
      lookup: deps.policy.lookup,
      rejectUnauthorized: false,
      ...(deps.ca
        ? { secureContext: clientContext(deps.ca) }
        : // Level 0 lets OpenSSL 3 negotiate TLS 1.0/1.1 and old suites, so they can be graded.
          { minVersion: 'TLSv1' as const, ciphers: 'DEFAULT:@SECLEVEL=0' }),
      checkServerIdentity: () => undefined,
      ALPNProtocols: ['http/1.1'],
    });
    const timer = setTimeout(() => {
      socket.destroy(Object.assign(new Error(`the TLS handshake did not complete within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const connectionTimeMs = performance.now() - started;
      const cert = socket.getPeerX509Certificate();
      const cipher = socket.getCipher();
      const result: TlsProbeResult | null = cert
        ? {
            protocol: socket.getProtocol() ?? 'unknown',
            cipher: { name: cipher.name, standardName: cipher.standardName },
            cert,
            chainError: socket.authorized ? null : String(socket.authorizationError ?? 'UNTRUSTED'),
            hostnameError: coversHost(cert, bare) ? null : `certificate does not cover ${bare}`,
            connectionTimeMs,
            remoteAddress: socket.remoteAddress ?? '',
          }
        : null;
      socket.end();
      if (result) resolve(result);
      else reject(Object.assign(new Error(`${host}:${port} sent no certificate`), { code: 'ERR_TLS_NO_CERT' }));
    });
  });
}

/** RFC 6125 host check (wildcards in the left-most label; IP literals against IP SANs). */
function coversHost(cert: X509Certificate, host: string): boolean {
  return (net.isIP(host) ? cert.checkIP(host) : cert.checkHost(host)) !== undefined;
}

/** The values of `key` (`O`, `CN`, …) in a distinguished name as Node prints it (`C=US\nO=Let's Encrypt\nCN=R3`). */
export function dnValues(dn: string, key: string): string[] {
  return dn
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1).trim())
    .filter(Boolean);
}
