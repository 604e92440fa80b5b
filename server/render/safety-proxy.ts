import type dns from 'node:dns';
import { Server, RequestError } from 'proxy-chain';
import { parseIpLiteral } from '../net/address-class.js';
import type { LookupCallback, TargetPolicy } from '../net/target-policy.js';

/**
 * Maps host names to fixed addresses before the policy sees them (tests point ad/tracker
 * names at a loopback server). The mapped address is still checked by the policy.
 */
export type HostOverride = (hostname: string) => string | undefined;

/**
 * A loopback HTTP proxy that every request of a rendered page goes through (documents,
 * subresources, redirects, websockets, service workers: Chromium resolves no names itself
 * when it uses a proxy). Names are resolved with the policy's checking lookup, so the
 * socket goes to the address that was checked; IP literals are refused here because
 * proxy-chain connects to them without a lookup.
 */
export interface SafetyProxy {
  readonly url: string;
  close(): Promise<void>;
}

export async function startSafetyProxy(policy: TargetPolicy, override?: HostOverride): Promise<SafetyProxy> {
  const lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) =>
    policy.lookup(override?.(hostname) ?? hostname, options, callback);

  const server = new Server({
    port: 0,
    host: '127.0.0.1',
    verbose: false,
    prepareRequestFunction: ({ hostname }) => {
      const host = hostname.replace(/^\[|\]$/g, '');
      const literal = parseIpLiteral(host);
      if (literal && !policy.allowsAddress(literal.toString())) {
        throw new RequestError(`${host} is a ${literal.range()} address, which is not an allowed target`, 403);
      }
      return { dnsLookup: lookup as unknown as typeof dns.lookup };
    },
  });
  // proxy-chain logs failed upstream requests through this event; they are the page's business.
  server.on('requestFailed', () => undefined);
  await server.listen();
  return {
    url: `http://127.0.0.1:${server.port}`,
    close: () => server.close(true),
  };
}
