import { readFileSync } from 'node:fs';
import tls from 'node:tls';

/**
 * The CA certificates a TLS check trusts: Node's default store (Mozilla's bundle plus
 * `NODE_EXTRA_CA_CERTS`), the operating system's store, and the PEM bundle in
 * `extraCaFile` (config `TLS_EXTRA_CA_FILE`). Built once at start; passing `ca` to
 * `tls.connect` replaces Node's default list, so the defaults are included explicitly.
 */
export function loadTrustedCas(opts: { extraCaFile?: string; extraCas?: string[] } = {}): string[] {
  const all = new Set<string>([...tls.getCACertificates('default'), ...systemCas()]);
  if (opts.extraCaFile) for (const pem of splitPem(readFileSync(opts.extraCaFile, 'utf8'))) all.add(pem);
  for (const pem of opts.extraCas ?? []) all.add(pem.trim());
  return [...all];
}

function systemCas(): string[] {
  try {
    return tls.getCACertificates('system');
  } catch {
    return []; // no readable system store on this host; Node's bundle still applies
  }
}

/** Splits a PEM bundle into its certificates. */
export function splitPem(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

const contexts = new WeakMap<readonly string[], tls.SecureContext>();

/**
 * One client SecureContext per CA list, built once: parsing several hundred CA
 * certificates on every connection costs about 20 ms. Accepts TLS 1.0+ and OpenSSL
 * security level 0 so old servers can be measured and graded.
 */
export function clientContext(ca: readonly string[]): tls.SecureContext {
  let ctx = contexts.get(ca);
  if (!ctx) {
    ctx = tls.createSecureContext({ ca: [...ca], minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' });
    contexts.set(ca, ctx);
  }
  return ctx;
}
