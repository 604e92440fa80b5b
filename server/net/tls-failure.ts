/**
 * One sentence per kind of certificate or handshake failure, whoever met it: Node's TLS (the
 * fetch-mode checks, perf, links) reports OpenSSL's codes, Chromium (render mode) its
 * `net::ERR_*` codes. The same certificate reads the same in every API and mode.
 */
const reasons: Array<[RegExp, string]> = [
  [
    /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED|ERR_CERT_AUTHORITY_INVALID)$/,
    'the certificate is not from a trusted authority: self-signed, or issued by an unknown CA',
  ],
  [/^(CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_CERT_DATE_INVALID)$/, 'the certificate has expired or is not valid yet'],
  [/^(ERR_TLS_CERT_ALTNAME_INVALID|ERR_CERT_COMMON_NAME_INVALID)$/, 'the certificate is for another host name'],
  [/^(CERT_REVOKED|ERR_CERT_REVOKED)$/, 'the certificate was revoked'],
  [/^(ERR_SSL_VERSION_OR_CIPHER_MISMATCH|ERR_SSL_VERSION_INTERFERENCE)$/, 'no TLS version or cipher in common with the server'],
];

/** Chromium's error code in a navigation error's message (`net::ERR_CERT_DATE_INVALID at https://…`). */
export const chromiumCode = (message: string) => /net::(ERR_[A-Z_]+)/.exec(message)?.[1];

/** The failure in words: the shared sentence for a known code, else the cause without OpenSSL's prefix and source path. */
export function tlsFailureReason(codes: readonly string[], message: string): string {
  for (const [pattern, reason] of reasons) if (codes.some((c) => pattern.test(c))) return reason;
  const chromium = chromiumCode(message);
  if (chromium) return `the browser refused the connection (${chromium})`;
  return readableOpenSslError(message);
}

/**
 * OpenSSL's messages carry a library prefix and source path
 * ("408D…:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/…");
 * keep the reason, and say what the common ones mean.
 */
function readableOpenSslError(message: string): string {
  const m = /SSL routines:[^:]*:([^:]+):/.exec(message);
  const reason = (m?.[1] ?? message).trim();
  if (reason === 'wrong version number') return 'wrong version number: the port does not speak TLS, perhaps plain HTTP';
  if (reason === 'unsupported protocol') return 'unsupported protocol: the server offers only TLS versions too old to negotiate';
  return reason;
}
