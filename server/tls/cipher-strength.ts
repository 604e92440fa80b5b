/** What a negotiated cipher suite is worth for grading. */
export interface CipherStrength {
  /** Symmetric key bits (AES-256 → 256, ChaCha20 → 256, 3DES → 112). */
  bits: number;
  /** Authenticated encryption (GCM, CCM, ChaCha20-Poly1305). */
  aead: boolean;
  /** Ephemeral key exchange (ECDHE/DHE, and every TLS 1.3 suite). */
  forwardSecrecy: boolean;
  /** RC4, DES/3DES, NULL, EXPORT, anonymous or under 128 bits. */
  weak: boolean;
}

/**
 * Reads strength from the OpenSSL or IANA suite name (`TLS_AES_256_GCM_SHA384`,
 * `ECDHE-RSA-AES128-GCM-SHA256`); Node's `getCipher()` does not report key bits.
 */
export function cipherStrength(name: string, protocol: string): CipherStrength {
  const n = name.toUpperCase();
  let bits = 128;
  if (/CHACHA20|AES_?256|CAMELLIA_?256|ARIA_?256/.test(n)) bits = 256;
  else if (/AES_?128|CAMELLIA_?128|ARIA_?128|SEED/.test(n)) bits = 128;
  else if (/3DES|DES-CBC3|DES_EDE/.test(n)) bits = 112;
  else if (/(^|[-_])DES([-_]|$)|EXP/.test(n)) bits = 56;
  else if (/RC4/.test(n)) bits = 128;
  else if (/NULL/.test(n)) bits = 0;
  const aead = /GCM|CCM|CHACHA20|POLY1305/.test(n);
  const forwardSecrecy = protocol === 'TLSv1.3' || /(^|[-_])(ECDHE|DHE|EDH)[-_]/.test(n);
  const weak = bits < 128 || /RC4|NULL|EXP|ANON|ADH|AECDH|MD5|(^|[-_])DES/.test(n);
  return { bits, aead, forwardSecrecy, weak };
}
