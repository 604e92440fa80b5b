import type { TargetPolicy } from '../net/target-policy.js';
import { probeTls } from '../tls/tls-probe.js';

/** Longest wait for the handshake that reads the issuer: a missing issuer only loses a signal. */
const ISSUER_TIMEOUT_MS = 5_000;

/**
 * Who issued the certificate the server of `url` presents: the issuer's organisation(s), then
 * its common name, as the `certIssuer` rules of the data are written ("Let's Encrypt",
 * "DigiCert"). Empty when `url` is not https or the handshake fails; the target policy
 * applies as for every request.
 */
export async function certIssuerOf(url: string, policy: TargetPolicy, timeoutMs: number): Promise<string[]> {
  const u = new URL(url);
  if (u.protocol !== 'https:') return [];
  try {
    const { cert } = await probeTls({ host: u.hostname, port: u.port ? Number(u.port) : 443, timeoutMs: Math.min(timeoutMs, ISSUER_TIMEOUT_MS) }, { policy });
    return issuerNames(cert.issuer);
  } catch {
    return [];
  }
}

/** `O` then `CN` values of an X.509 issuer as Node prints it (`C=US\nO=Let's Encrypt\nCN=R3`). */
export function issuerNames(issuer: string): string[] {
  const fields = issuer.split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  const values = (name: string) => fields.filter(([k, v]) => k === name && v.trim()).map(([, v]) => v.trim());
  return [...values('O'), ...values('CN')];
}
