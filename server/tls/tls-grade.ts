import { cipherStrength } from './cipher-strength.js';

export const tlsGrades = ['A+', 'A', 'B', 'C', 'F'] as const;
export type TlsGrade = (typeof tlsGrades)[number];

export interface TlsGradeInput {
  protocol: string;
  cipherName: string;
  daysRemaining: number;
  notYetValid: boolean;
  chainTrusted: boolean;
  selfSigned: boolean;
  hostnameMatches: boolean;
  keyType?: string;
  keyBits?: number;
  signatureAlgorithm?: string;
}

export interface TlsGradeResult {
  grade: TlsGrade;
  /** The grade from protocol and cipher alone, before certificate caps. */
  gradeBeforeCaps: TlsGrade;
  /** Every point lost and every cap applied, in words a person can act on. */
  issues: string[];
}

/** The rubric, shown in the OpenAPI description. */
export const tlsRubric = [
  'Base grade from protocol and cipher: TLS 1.3 with a 256-bit cipher A+; TLS 1.3 with a 128-bit cipher A; TLS 1.2 with an AEAD cipher and forward secrecy A; TLS 1.2 with a CBC cipher or without forward secrecy B; TLS 1.2 with a weak cipher (under 128 bits, RC4, 3DES, NULL, EXPORT) C; TLS 1.1 or 1.0 C; SSLv3 F.',
  'Caps (the lowest applies; `grade_before_caps` shows the base grade): expired or not yet valid F; fewer than 7 days left B; fewer than 30 days left A (A+ needs 30 days); chain not trusted, self-signed or host name mismatch C (never above C, as in SSL Labs); RSA key under 2048 bits B; SHA-1 signature C.',
].join(' ');

const rank = (g: TlsGrade) => tlsGrades.indexOf(g);
const worst = (a: TlsGrade, b: TlsGrade): TlsGrade => (rank(a) >= rank(b) ? a : b);

export function gradeTls(input: TlsGradeInput): TlsGradeResult {
  const issues: string[] = [];
  const c = cipherStrength(input.cipherName, input.protocol);
  let base: TlsGrade;
  if (input.protocol === 'TLSv1.3') {
    base = c.bits >= 256 ? 'A+' : 'A';
    if (base === 'A') issues.push(`TLS 1.3 with a ${c.bits}-bit cipher (${input.cipherName}): prefer AES-256-GCM or ChaCha20-Poly1305 for A+`);
  } else if (input.protocol === 'TLSv1.2') {
    if (c.weak) {
      base = 'C';
      issues.push(`weak cipher ${input.cipherName}: disable RC4, 3DES, NULL, EXPORT and suites under 128 bits`);
    } else if (!c.aead || !c.forwardSecrecy) {
      base = 'B';
      if (!c.forwardSecrecy) issues.push(`cipher ${input.cipherName} has no forward secrecy: prefer ECDHE suites`);
      if (!c.aead) issues.push(`cipher ${input.cipherName} uses CBC mode: prefer AES-GCM or ChaCha20-Poly1305`);
    } else {
      base = 'A';
    }
    issues.push('TLS 1.2 negotiated: enable TLS 1.3 (with a 256-bit cipher) for A+');
  } else if (input.protocol === 'TLSv1.1' || input.protocol === 'TLSv1') {
    base = 'C';
    issues.push(`${input.protocol.replace('TLSv', 'TLS ')} negotiated: it is deprecated (RFC 8996); enable TLS 1.2 and 1.3 and disable older versions`);
  } else {
    base = 'F';
    issues.push(`${input.protocol} negotiated: SSL is broken; enable TLS 1.2 and 1.3 only`);
  }

  let grade = base;
  const cap = (g: TlsGrade, why: string) => {
    issues.push(`${why} (grade capped at ${g})`);
    grade = worst(grade, g);
  };
  if (input.daysRemaining < 0) cap('F', `certificate expired ${-input.daysRemaining} day(s) ago: renew it`);
  else if (input.notYetValid) cap('F', 'certificate is not valid yet: check its start date and the server clock');
  else if (input.daysRemaining < 7) cap('B', `certificate expires in ${input.daysRemaining} day(s): renew it now`);
  else if (input.daysRemaining < 30 && rank(grade) < rank('A')) cap('A', `certificate expires in ${input.daysRemaining} days: renew it (A+ needs at least 30 days left)`);
  if (input.selfSigned) cap('C', 'certificate is self-signed: use one issued by a trusted CA');
  else if (!input.chainTrusted) cap('C', 'certificate chain is not trusted: serve the full chain from a trusted CA');
  if (!input.hostnameMatches) cap('C', 'certificate does not cover this host name: add it to the subject alternative names');
  if (input.keyType === 'rsa' && input.keyBits !== undefined && input.keyBits < 2048) cap('B', `RSA key of ${input.keyBits} bits: use 2048 bits or more`);
  if (input.signatureAlgorithm && /sha1|md5/i.test(input.signatureAlgorithm)) cap('C', `certificate signed with ${input.signatureAlgorithm}: reissue it with SHA-256`);
  return { grade, gradeBeforeCaps: base, issues };
}
