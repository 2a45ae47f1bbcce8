/**
 * The address policy over a table of URLs: every refused class of address and every odd
 * encoding of one, IPv6 forms, blocked and special-use names, names that resolve to non-public
 * addresses, and public destinations that pass. Names are answered by a DNS stub on loopback;
 * nothing here opens a connection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveDestination } from '#engine/resources/remote/destination.js';
import { DestinationRefused } from '#engine/resources/remote/destination-errors.js';
import { DEFAULT_NET_SETTINGS, type NetSettings } from '../../../src/net/net-settings.js';
import { startDnsStub, type DnsStub } from './support/dns-stub.js';

/** A dotted quad: the destination passes with that address. Otherwise the refusal, or `invalid` (the URL parser refuses). */
type Expected = string;

const HTTP = ['http:', 'https:'];

const TABLE: [url: string, expected: Expected][] = [
  // Loopback, in every encoding the URL parser normalises.
  ['http://127.0.0.1/', 'address'],
  ['http://127.1/', 'address'],
  ['http://127.0.1/', 'address'],
  ['http://2130706433/', 'address'],
  ['http://0x7f000001/', 'address'],
  ['http://0x7f.0x0.0x0.0x1/', 'address'],
  ['http://0x7F.1/', 'address'],
  ['http://0177.0.0.1/', 'address'],
  ['http://0177.1/', 'address'],
  ['http://017700000001/', 'address'],
  ['http://127.255.255.254/', 'address'],
  ['http://%31%32%37.0.0.1/', 'address'],
  ['http://１２７.０.０.１/', 'address'],
  ['http://127.0.0.1:8080/x', 'address'],
  ['http://127.0.0.1./', 'address'],
  // "This network" and unspecified.
  ['http://0.0.0.0/', 'address'],
  ['http://0/', 'address'],
  ['http://0.1.2.3/', 'address'],
  // Private.
  ['http://10.0.0.1/', 'address'],
  ['http://10.255.255.255/', 'address'],
  ['http://167772161/', 'address'],
  ['http://0xa000001/', 'address'],
  ['http://012.0.0.1/', 'address'],
  ['http://172.16.0.1/', 'address'],
  ['http://172.31.255.254/', 'address'],
  ['http://192.168.0.1/', 'address'],
  ['https://192.168.1.1:443/', 'address'],
  ['http://0xc0a80001/', 'address'],
  ['http://3232235777/', 'address'],
  // Link-local, the cloud metadata address among them.
  ['http://169.254.169.254/latest/meta-data/', 'address'],
  ['http://169.254.0.1/', 'address'],
  ['http://0xa9fea9fe/', 'address'],
  ['http://2852039166/', 'address'],
  // Shared address space (CGNAT).
  ['http://100.64.0.1/', 'address'],
  ['http://100.127.255.254/', 'address'],
  // Multicast and broadcast.
  ['http://224.0.0.1/', 'address'],
  ['http://239.255.255.250/', 'address'],
  ['http://255.255.255.255/', 'address'],
  ['http://4294967295/', 'address'],
  // Reserved, benchmarking, protocol assignments, anycast.
  ['http://240.0.0.1/', 'address'],
  ['http://192.0.0.8/', 'address'],
  ['http://192.88.99.1/', 'address'],
  ['http://198.18.0.1/', 'address'],
  ['http://198.19.255.254/', 'address'],
  ['http://192.31.196.1/', 'address'],
  ['http://192.52.193.1/', 'address'],
  ['http://192.175.48.1/', 'address'],
  // Documentation.
  ['http://192.0.2.1/', 'address'],
  ['http://198.51.100.7/', 'address'],
  ['http://203.0.113.9/', 'address'],
  // IPv6, mapped and compatible forms of IPv4 included: only IPv4 is ever reached.
  ['http://[::1]/', 'ipv6'],
  ['http://[::ffff:127.0.0.1]/', 'ipv6'],
  ['http://[::ffff:7f00:1]/', 'ipv6'],
  ['http://[::127.0.0.1]/', 'ipv6'],
  ['http://[::ffff:10.0.0.1]/', 'ipv6'],
  ['http://[::ffff:8.8.8.8]/', 'ipv6'],
  ['http://[0:0:0:0:0:ffff:169.254.169.254]/', 'ipv6'],
  ['http://[64:ff9b::7f00:1]/', 'ipv6'],
  ['http://[2002:7f00:1::]/', 'ipv6'],
  ['http://[fe80::1]/', 'ipv6'],
  ['http://[fc00::1]/', 'ipv6'],
  ['http://[::]/', 'ipv6'],
  ['http://[2606:4700:4700::1111]/', 'ipv6'],
  // Forms the URL parser refuses outright.
  ['http://1.2.3.4.5/', 'invalid'],
  ['http://4294967296/', 'invalid'],
  ['http://0x100000000/', 'invalid'],
  ['http://256.0.0.1/', 'invalid'],
  ['http://08.0.0.1/', 'invalid'],
  ['http://[::1/', 'invalid'],
  ['http://a b.example.com/', 'invalid'],
  // Credentials and schemes.
  ['http://user:pass@93.184.216.34/', 'credentials'],
  ['https://user@public.example.com/', 'credentials'],
  ['ftp://93.184.216.34/', 'scheme'],
  ['file:///etc/passwd', 'scheme'],
  ['gopher://93.184.216.34:70/', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['ws://93.184.216.34/', 'scheme'],
  // Special-use, single-label and configured blocked domains, with subdomains.
  ['http://localhost/', 'blocked_domain'],
  ['http://LOCALHOST./', 'blocked_domain'],
  ['http://foo.localhost/', 'blocked_domain'],
  ['http://printer.local/', 'blocked_domain'],
  ['http://db.internal/', 'blocked_domain'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'blocked_domain'],
  ['http://router.home.arpa/', 'blocked_domain'],
  ['http://box.localdomain/', 'blocked_domain'],
  ['http://x.test/', 'blocked_domain'],
  ['http://intranet/', 'blocked_domain'],
  ['http://blocked.example/', 'blocked_domain'],
  ['http://deep.sub.Blocked.Example./', 'blocked_domain'],
  ['http://bücher.blocked-idn.example/', 'blocked_domain'],
  ['http://notblocked.example/', '93.184.216.34'],
  // Names: every A record must be public.
  ['http://public.example.com/', '93.184.216.34'],
  ['http://PUBLIC.Example.COM./', '93.184.216.34'],
  ['https://public.example.com:8443/path?q=1', '93.184.216.34'],
  ['http://multi.example.com/', '93.184.216.34'],
  ['http://bücher.example.com/', '151.101.1.69'],
  ['http://private.example.com/', 'address'],
  ['http://mixed.example.com/', 'address'],
  ['http://loop.example.com/', 'address'],
  ['http://meta.example.com/', 'address'],
  ['http://cgnat.example.com/', 'address'],
  ['http://zero.example.com/', 'address'],
  ['http://docs.example.com/', 'address'],
  ['http://multicast.example.com/', 'address'],
  ['http://v6only.example.com/', 'no_ipv4'],
  ['http://nxdomain.example.com/', 'no_ipv4'],
  // Public addresses pass, odd encodings of them too; neighbours of refused ranges pass.
  ['http://93.184.216.34/', '93.184.216.34'],
  ['https://8.8.8.8/', '8.8.8.8'],
  ['http://1.1.1.1/', '1.1.1.1'],
  ['http://0x08080808/', '8.8.8.8'],
  ['http://134744072/', '8.8.8.8'],
  ['http://010.010.010.010/', '8.8.8.8'],
  ['http://1.0.0.1/', '1.0.0.1'],
  ['http://100.63.255.255/', '100.63.255.255'],
  ['http://100.128.0.1/', '100.128.0.1'],
  ['http://172.15.255.255/', '172.15.255.255'],
  ['http://172.32.0.1/', '172.32.0.1'],
  ['http://192.167.255.255/', '192.167.255.255'],
  ['http://169.253.255.255/', '169.253.255.255'],
  ['http://198.20.0.1/', '198.20.0.1'],
  ['http://223.255.255.254/', '223.255.255.254'],
  ['http://11.0.0.1/', '11.0.0.1'],
  ['http://126.255.255.255/', '126.255.255.255'],
  ['http://128.0.0.1/', '128.0.0.1'],
];

const SETTINGS = (dns: DnsStub, changes: Partial<NetSettings> = {}): NetSettings => ({
  ...DEFAULT_NET_SETTINGS,
  blockedDomains: ['blocked.example', 'blocked-idn.example'],
  dnsServers: [dns.server],
  ...changes,
});

/** What the policy makes of `url`: the address it would connect to, or why not. */
async function judge(url: string, settings: NetSettings, schemes = HTTP): Promise<string> {
  if (!URL.canParse(url)) return 'invalid';
  try {
    return (await resolveDestination(new URL(url), schemes, settings)).address;
  } catch (error) {
    if (error instanceof DestinationRefused) return error.reason;
    throw error;
  }
}

describe('the address policy', () => {
  let dns: DnsStub;
  before(async () => {
    dns = await startDnsStub({
      'notblocked.example': ['93.184.216.34'],
      'public.example.com': ['93.184.216.34'],
      'multi.example.com': ['93.184.216.34', '93.184.216.35'],
      'xn--bcher-kva.example.com': ['151.101.1.69'],
      'private.example.com': ['10.0.0.1'],
      'mixed.example.com': ['93.184.216.34', '10.0.0.1'],
      'loop.example.com': ['127.0.0.1'],
      'meta.example.com': ['169.254.169.254'],
      'cgnat.example.com': ['100.64.1.1'],
      'zero.example.com': ['0.0.0.0'],
      'docs.example.com': ['192.0.2.10'],
      'multicast.example.com': ['224.0.0.251'],
      'v6only.example.com': [],
    });
  });
  after(() => dns.close());

  it(`should judge a table of ${TABLE.length} URLs as expected`, async () => {
    assert.ok(TABLE.length >= 100);
    const wrong: string[] = [];
    for (const [url, expected] of TABLE) {
      const actual = await judge(url, SETTINGS(dns));
      if (actual !== expected) wrong.push(`${url}: expected ${expected}, got ${actual}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('should never ask DNS about an address literal or a refused name', async () => {
    const asked = new Set(dns.queries);
    for (const name of ['localhost', 'intranet', 'blocked.example', 'printer.local', '127.0.0.1']) assert.ok(!asked.has(name), name);
  });

  it('should allow only https where a request asks for it (uploads)', async () => {
    assert.equal(await judge('http://public.example.com/a.pdf', SETTINGS(dns), ['https:']), 'scheme');
    assert.equal(await judge('https://public.example.com/a.pdf', SETTINGS(dns), ['https:']), '93.184.216.34');
  });

  it('should let loopback through only under the test switch, and nothing else it refuses', async () => {
    const loopback = SETTINGS(dns, { allowLoopback: true });
    assert.equal(await judge('http://127.0.0.1/', loopback), '127.0.0.1');
    assert.equal(await judge('http://0x7f000001/', loopback), '127.0.0.1');
    assert.equal(await judge('http://loop.example.com/', loopback), '127.0.0.1');
    for (const [url, expected] of [
      ['http://10.0.0.1/', 'address'],
      ['http://0.0.0.0/', 'address'],
      ['http://169.254.169.254/', 'address'],
      ['http://[::1]/', 'ipv6'],
      ['http://localhost/', 'blocked_domain'],
      ['http://private.example.com/', 'address'],
    ]) {
      assert.equal(await judge(url!, loopback), expected, url);
    }
  });
});
