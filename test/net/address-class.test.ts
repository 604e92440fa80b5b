import { expect } from 'chai';
import { isPublicAddress, parseIpLiteral } from '../../server/net/address-class.js';
import { createTargetPolicy } from '../../server/net/target-policy.js';

describe('address classifier', () => {
  const refused: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['2130706433', 'loopback, decimal form'],
    ['0x7f000001', 'loopback, hex form'],
    ['0x7f.1', 'loopback, short hex form'],
    ['0177.0.0.1', 'loopback, octal form'],
    ['017700000001', 'loopback, octal number'],
    ['127.1', 'loopback, short form'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified, number'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local, cloud metadata'],
    ['0xa9fea9fe', 'link-local metadata, hex'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'IPv6 loopback, bracketed'],
    ['::', 'IPv6 unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['[::ffff:7f00:1]', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with zone'],
    ['fc00::1', 'IPv6 unique local'],
    ['fd12:3456:789a::1', 'IPv6 unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['2002:7f00:1::', '6to4 wrapping loopback'],
    ['100::1', 'IPv6 discard prefix'],
  ];
  for (const [ip, what] of refused) {
    it(`refuses ${ip} (${what})`, () => {
      expect(isPublicAddress(ip), ip).to.equal(false);
    });
  }

  const allowed = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '11.0.0.1', '2606:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '0x08080808'];
  for (const ip of allowed) {
    it(`allows the public address ${ip}`, () => {
      expect(isPublicAddress(ip), ip).to.equal(true);
    });
  }

  it('does not take host names for addresses', () => {
    for (const host of ['example.com', 'localhost', 'abc', '1.2.3.4.example', 'deadbeef.com']) {
      expect(parseIpLiteral(host), host).to.equal(null);
    }
  });

  it('a policy with a CIDR list allows just those private addresses', () => {
    const policy = createTargetPolicy('127.0.0.2/32, ::1');
    expect(policy.allowsAddress('127.0.0.2')).to.equal(true);
    expect(policy.allowsAddress('::1')).to.equal(true);
    expect(policy.allowsAddress('127.0.0.1')).to.equal(false);
    expect(policy.allowsAddress('10.0.0.1')).to.equal(false);
    expect(policy.allowsAddress('8.8.8.8')).to.equal(true);
  });

  it('refuses non-web schemes whatever the policy', () => {
    const policy = createTargetPolicy('true');
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://127.0.0.1/', 'chrome://settings', 'javascript:alert(1)', 'data:text/html,x']) {
      expect(() => policy.assertUrl(url), url).to.throw(/scheme is not allowed/);
    }
  });
});
