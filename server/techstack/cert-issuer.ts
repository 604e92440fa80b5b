import { isFailure, type Part } from '../errors/part-failure.js';
import type { TargetPolicy } from '../net/target-policy.js';
import type { TlsReport } from '../tls/tls-check.js';
import { dnValues, probeTls } from '../tls/tls-probe.js';

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

/**
 * The issuer's first organisation and common name from an X.509 issuer as Node prints it
 * (`C=US\nO=Let's Encrypt\nCN=R3`): the same two names the TLS report shows, so
 * `/api/techstack` and an audit (which reads the TLS report's) see the same issuer.
 */
export function issuerNames(issuer: string): string[] {
  return [dnValues(issuer, 'O')[0], dnValues(issuer, 'CN')[0]].filter((v): v is string => Boolean(v));
}

/** The issuer as the TLS check reported it (none when the check failed or did not run), for a caller that has both. */
export function issuerFromTls(report: Part<TlsReport> | null | undefined): string[] {
  return report && !isFailure(report) ? [report.issuer.organization, report.issuer.common_name].filter(Boolean) : [];
}
