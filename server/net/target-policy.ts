import dns from 'node:dns';
import ipaddr from 'ipaddr.js';
import { isPublicAddress, parseIpLiteral } from './address-class.js';
import { TargetRefusedError } from '../errors/target-errors.js';

/** Thrown (or passed to callbacks) when a target is refused: the vocabulary's 400 `blocked_target`. */
export class BlockedTargetError extends TargetRefusedError {
  constructor(reason: string) {
    super(reason.startsWith('target refused') ? reason : `target refused: ${reason}`);
  }
}

export type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * The one rule for where the service may send traffic: public unicast addresses,
 * plus what `ALLOW_PRIVATE_TARGETS` allows (everything, or listed addresses/CIDRs).
 */
export interface TargetPolicy {
  /** Which private addresses may be targets: none, all, or the listed ranges (`ALLOW_PRIVATE_TARGETS`). */
  readonly privateTargets: 'none' | 'all' | { listed: string };
  /** True when `ip` may be connected to. */
  allowsAddress(ip: string): boolean;
  /** A `dns.lookup`-compatible function that refuses disallowed resolved addresses. */
  lookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void;
  /** Throws BlockedTargetError unless `url` is http(s) and its host literal (if any) is allowed. */
  assertUrl(url: URL | string): URL;
  /** assertUrl plus a DNS resolution check; throws BlockedTargetError or the DNS error. */
  assertResolvable(url: URL | string): Promise<URL>;
}

export interface TargetPolicyOptions {
  /**
   * The instance runs for its operator alone (its public base URL is a loopback one, as when
   * PUBLIC_BASE_URL is unset): a refusal then names the setting that allows private targets.
   * Elsewhere it only says that the operator can allow them, so strangers are not told
   * settings. @default false
   */
  localInstance?: boolean;
}

/** Parses `ALLOW_PRIVATE_TARGETS`: `true`/`false`, or a comma list of addresses and CIDRs. */
export function createTargetPolicy(allowPrivate: string, options: TargetPolicyOptions = {}): TargetPolicy {
  const setting = allowPrivate.trim().toLowerCase();
  const allowAll = setting === 'true' || setting === '1' || setting === 'yes';
  const allowNone = ['false', '0', 'no', ''].includes(setting);
  const cidrs = allowAll || allowNone ? [] : setting.split(',').map((s) => parseCidr(s.trim()));
  const privateTargets = allowAll ? 'all' : allowNone ? 'none' : { listed: allowPrivate.trim() };
  const hint = options.localInstance
    ? 'to check a local site, restart this instance with ALLOW_PRIVATE_TARGETS=true'
    : 'this instance checks public sites only (its operator can allow private addresses)';
  const refusal = (what: string, range: string) =>
    new BlockedTargetError(`${what} ${range} address, which is not an allowed target; use a public http(s) URL, or ${hint}`);

  const allowsAddress = (ip: string): boolean => {
    const addr = parseIpLiteral(ip);
    if (!addr) return false;
    if (allowAll || isPublicAddress(addr.toString())) return true;
    return cidrs.some(([range, bits]) => addr.kind() === range.kind() && addr.match(range, bits));
  };

  const assertUrl = (input: URL | string): URL => {
    let url: URL;
    try {
      url = typeof input === 'string' ? new URL(input) : input;
    } catch {
      throw new BlockedTargetError(`${String(input)} is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new BlockedTargetError(`the ${url.protocol.replace(':', '')} scheme is not allowed, only http and https`);
    }
    const literal = parseIpLiteral(url.hostname);
    if (literal && !allowsAddress(literal.toString())) throw refusal(`${url.hostname} is a`, literal.range());
    return url;
  };

  const lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    const literal = parseIpLiteral(hostname);
    if (literal) {
      const ip = literal.toString();
      if (!allowsAddress(ip)) return callback(refusal(`${hostname} is a`, literal.range()), '', 0);
      const family = literal.kind() === 'ipv6' ? 6 : 4;
      return options.all ? callback(null, [{ address: ip, family }]) : callback(null, ip, family);
    }
    // `localhost.` is `localhost`: a fully qualified name's root dot is resolved away, as a
    // browser does, so no resolver that lacks it in its hosts file lets a private name past.
    dns.lookup(hostname.replace(/(?<=.)\.$/, ''), { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => !allowsAddress(a.address));
      // The refusal names the host as given; the resolved address stays unprinted (it may be internal).
      if (bad) return callback(refusal(`${hostname} resolves to a`, parseIpLiteral(bad.address)?.range() ?? 'reserved'), '', 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      callback(null, first.address, first.family);
    });
  };

  const assertResolvable = async (input: URL | string): Promise<URL> => {
    const url = assertUrl(input);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    await new Promise<void>((resolve, reject) =>
      lookup(host, { all: true }, (err) => (err ? reject(err) : resolve())),
    );
    return url;
  };

  return { privateTargets, allowsAddress, lookup, assertUrl, assertResolvable };
}

function parseCidr(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (entry.includes('/')) return ipaddr.parseCIDR(entry);
  const addr = ipaddr.parse(entry);
  return [addr, addr.kind() === 'ipv4' ? 32 : 128];
}
