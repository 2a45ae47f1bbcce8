import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DestinationUnchecked } from '#engine/resources/remote/destination-errors.js';
import { resolveIPv4 } from '#engine/resources/remote/resolve-ipv4.js';
import { startDnsStub, type DnsStub } from './support/dns-stub.js';

describe('resolving a host name to IPv4 addresses', () => {
  let dns: DnsStub;
  before(async () => {
    dns = await startDnsStub({
      'one.example.com': ['93.184.216.34'],
      'two.example.com': ['93.184.216.34', '10.0.0.1'],
      'broken.example.com': 'servfail',
      'silent.example.com': 'silent',
    });
  });
  after(() => dns.close());

  it('should return every A record the server gives', async () => {
    assert.deepEqual(await resolveIPv4('one.example.com', { servers: [dns.server] }), ['93.184.216.34']);
    assert.deepEqual(await resolveIPv4('two.example.com', { servers: [dns.server] }), ['93.184.216.34', '10.0.0.1']);
  });

  it('should return no address for a name that does not exist, asked as an absolute name (no search domain)', async () => {
    const before = dns.queries.length;
    assert.deepEqual(await resolveIPv4('missing.example.com', { servers: [dns.server] }), []);
    assert.deepEqual(dns.queries.slice(before), ['missing.example.com']);
  });

  it('should report a failing server as a check that could not run', async () => {
    await assert.rejects(resolveIPv4('broken.example.com', { servers: [dns.server] }), (error: unknown) => {
      assert.ok(error instanceof DestinationUnchecked);
      assert.equal(error.reason, 'dns_error');
      return true;
    });
  });

  it('should give up on a server that never answers at its bound, as a timeout', async () => {
    await assert.rejects(resolveIPv4('silent.example.com', { servers: [dns.server], timeoutMs: 300 }), (error: unknown) => {
      assert.ok(error instanceof DestinationUnchecked);
      assert.equal(error.reason, 'dns_timeout');
      return true;
    });
  });

  it('should stop when the caller cancels', async () => {
    const controller = new AbortController();
    const pending = resolveIPv4('silent.example.com', { servers: [dns.server], signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, DestinationUnchecked);
  });
});
