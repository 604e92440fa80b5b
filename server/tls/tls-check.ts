import type { X509Certificate } from 'node:crypto';
import { targetError } from '../errors/index.js';
import { dnValues, probeTls, type TlsProbeDeps } from './tls-probe.js';
import { gradeTls, type TlsGrade } from './tls-grade.js';
import { cipherStrength } from './cipher-strength.js';

export interface TlsCheckOptions {
  host: string;
  /** @default 443 */
  port?: number;
  /** @default 10000 */
  timeoutMs?: number;
}

export interface TlsReport {
  domain: string;
  port: number;
  valid: boolean;
  grade: TlsGrade;
  grade_before_caps: TlsGrade;
  grade_issues: string[];
  subject: { common_name: string; organization: string };
  issuer: { common_name: string; organization: string };
  validity: { issued: string; expires: string; days_remaining: number };
  subject_alt_names: string[];
  protocol: string;
  cipher: { name: string; standard_name: string; bits: number; forward_secrecy: boolean; aead: boolean };
  serial_number: string;
  trust: { chain_trusted: boolean; hostname_matches: boolean; self_signed: boolean; error: string | null };
  public_key: { type: string; bits: number | null };
  signature_algorithm: string | null;
  fingerprint_sha256: string;
  ip_address: string;
  connection_time_ms: number;
  timestamp: string;
}

const DAY = 86_400_000;
const DATE_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/** Handshakes with `host:port` and grades what it saw. A handshake that cannot happen throws its target error (with its kind). */
export async function checkTls(opts: TlsCheckOptions, deps: TlsProbeDeps): Promise<TlsReport> {
  const port = opts.port ?? 443;
  const probe = await probeTls({ host: opts.host, port, timeoutMs: opts.timeoutMs }, deps).catch((err: unknown) => {
    throw targetError(err, `${opts.host}:${port}`);
  });
  const { cert } = probe;
  const now = Date.now();
  const expires = cert.validToDate;
  const issued = cert.validFromDate;
  const daysRemaining = Math.floor((expires.getTime() - now) / DAY);
  const notYetValid = issued.getTime() > now;
  const inWindow = !notYetValid && expires.getTime() > now;
  const selfSigned = isSelfSigned(cert);
  const chainTrusted = probe.chainError === null || (DATE_ERRORS.has(probe.chainError) && !selfSigned);
  const hostnameMatches = probe.hostnameError === null;
  const key = publicKeyInfo(cert);
  const signatureAlgorithm = (cert as X509Certificate & { signatureAlgorithm?: string }).signatureAlgorithm ?? null;
  const graded = gradeTls({
    protocol: probe.protocol,
    cipherName: probe.cipher.name,
    daysRemaining: expires.getTime() < now ? Math.min(-1, daysRemaining) : daysRemaining,
    notYetValid,
    chainTrusted,
    selfSigned,
    hostnameMatches,
    keyType: key.type,
    keyBits: key.bits ?? undefined,
    signatureAlgorithm: signatureAlgorithm ?? undefined,
  });
  const strength = cipherStrength(probe.cipher.name, probe.protocol);
  return {
    domain: opts.host,
    port,
    valid: chainTrusted && hostnameMatches && inWindow,
    grade: graded.grade,
    grade_before_caps: graded.gradeBeforeCaps,
    grade_issues: graded.issues,
    subject: nameParts(cert.subject),
    issuer: nameParts(cert.issuer),
    validity: { issued: issued.toISOString(), expires: expires.toISOString(), days_remaining: daysRemaining },
    subject_alt_names: altNames(cert.subjectAltName),
    protocol: probe.protocol,
    cipher: {
      name: probe.cipher.name,
      standard_name: probe.cipher.standardName,
      bits: strength.bits,
      forward_secrecy: strength.forwardSecrecy,
      aead: strength.aead,
    },
    serial_number: cert.serialNumber.toUpperCase(),
    trust: {
      chain_trusted: chainTrusted,
      hostname_matches: hostnameMatches,
      self_signed: selfSigned,
      error: probe.chainError ?? (hostnameMatches ? null : 'ERR_TLS_CERT_ALTNAME_INVALID'),
    },
    public_key: key,
    signature_algorithm: signatureAlgorithm,
    fingerprint_sha256: cert.fingerprint256,
    ip_address: probe.remoteAddress,
    connection_time_ms: Math.round(probe.connectionTimeMs * 10) / 10,
    timestamp: new Date().toISOString(),
  };
}

function isSelfSigned(cert: X509Certificate): boolean {
  if (cert.subject !== cert.issuer) return false;
  try {
    return cert.verify(cert.publicKey);
  } catch {
    return false; // unsupported key type: treat as not provably self-signed
  }
}

/** `CN=x\nO=y` (Node's distinguished-name text) → common name and organization. */
function nameParts(dn: string): { common_name: string; organization: string } {
  return { common_name: dnValues(dn, 'CN')[0] ?? '', organization: dnValues(dn, 'O')[0] ?? '' };
}

/** `DNS:a.example, IP Address:127.0.0.1` → `['a.example', '127.0.0.1']`. */
function altNames(san: string | undefined): string[] {
  if (!san) return [];
  return san
    .split(/,\s*/)
    .map((entry) => entry.replace(/^(DNS|IP Address|URI|email):/i, '').trim())
    .filter(Boolean);
}

function publicKeyInfo(cert: X509Certificate): { type: string; bits: number | null } {
  const k = cert.publicKey;
  const d = k.asymmetricKeyDetails ?? {};
  const curveBits: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521 };
  const bits = d.modulusLength ?? (d.namedCurve ? curveBits[d.namedCurve] ?? null : null);
  return { type: k.asymmetricKeyType ?? 'unknown', bits: k.asymmetricKeyType === 'ed25519' ? 256 : bits };
}

/**
 * Parses the `domain` parameter: a host name, optionally `:port` or `[v6]:port`; a
 * pasted `https://host/path` is reduced to its host. Returns null when it is not a host.
 */
export function parseDomain(input: string): { host: string; port: number } | null {
  let v = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) {
    try {
      const u = new URL(v);
      v = u.host;
    } catch {
      return null;
    }
  }
  v = v.replace(/[/?#].*$/, '');
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(v);
  if (!m) return null;
  const host = m[1].toLowerCase().replace(/\.$/, '');
  const port = m[2] ? Number(m[2]) : 443;
  if (port < 1 || port > 65535) return null;
  if (!host.startsWith('[') && !/^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/i.test(host)) return null;
  return { host, port };
}
