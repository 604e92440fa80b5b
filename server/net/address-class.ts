import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * ipaddr.js range names: `unicast` is the only public one; everything else
 * (private, loopback, linkLocal, carrierGradeNat, multicast, reserved, unspecified,
 * uniqueLocal, 6to4/teredo wrappers, benchmarking, …) is refused.
 */
export type AddressRange = ReturnType<ipaddr.IPv4['range']> | ReturnType<ipaddr.IPv6['range']>;

/**
 * Parses an IP literal in any form a URL host may carry (dotted, decimal `2130706433`,
 * octal `0177.0.0.1`, hex `0x7f.1`, bracketed IPv6, IPv4-mapped IPv6) and returns
 * the canonical address, or null when `host` is not an IP literal.
 */
export function parseIpLiteral(host: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let h = host.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!h) return null;
  if (!net.isIP(h)) {
    // The URL standard turns numeric IPv4 forms into dotted ones; reuse it.
    if (!/^[0-9a-fx.]+$/i.test(h)) return null;
    try {
      h = new URL(`http://${h}/`).hostname;
    } catch {
      return null; // not a host the URL parser accepts, so not an address either
    }
    if (!net.isIPv4(h)) return null;
  }
  const addr = ipaddr.parse(h);
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
    // IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::/96) embed an IPv4 address too.
    const parts = v6.parts;
    const embedsV4 =
      (parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7] > 1)) ||
      (parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((p) => p === 0));
    if (embedsV4) return ipaddr.IPv4.parse(`${parts[6] >> 8}.${parts[6] & 255}.${parts[7] >> 8}.${parts[7] & 255}`);
  }
  return addr;
}

/** The range an address belongs to (`unicast` = public). */
export function addressRange(ip: string): AddressRange | 'invalid' {
  const addr = parseIpLiteral(ip);
  return addr ? addr.range() : 'invalid';
}

/** True only for public unicast addresses. */
export function isPublicAddress(ip: string): boolean {
  return addressRange(ip) === 'unicast';
}

/** True for `localhost` (and its subdomains) and loopback literals: a host only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || addressRange(h) === 'loopback';
}
