/**
 * The upload destination check, before anything is reserved: every refusal a 400 whose message
 * never repeats the URL, a check that cannot run a 503, and no connection ever attempted.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_NET_SETTINGS } from '../../../src/net/net-settings.js';
import { networkUploader } from '../../../src/net/network-uploader.js';
import { ServiceError } from '../../../src/service-error.js';
import { startDnsStub, type DnsStub } from './support/dns-stub.js';

const SECRET = 'sig-5ecr3t';

describe('checking an upload destination', () => {
  let dns: DnsStub;
  const logs: Record<string, unknown>[] = [];
  let uploader: ReturnType<typeof networkUploader>;

  before(async () => {
    dns = await startDnsStub({
      'storage.example.net': ['93.184.216.34'],
      'private.example.net': ['10.20.30.40'],
      'rebind.example.net': ['93.184.216.34', '127.0.0.1'],
      'v6only.example.net': [],
      'broken.example.net': 'servfail',
    });
    uploader = networkUploader(
      { ...DEFAULT_NET_SETTINGS, dnsServers: [dns.server], blockedDomains: ['blocked.example.net'] },
      (event) => logs.push(event),
      60_000,
    );
  });
  after(() => dns.close());

  /** The ServiceError a check ends in, checked never to repeat the URL or its parts. */
  async function refusal(url: string): Promise<ServiceError> {
    try {
      await uploader.checkDestination(url);
    } catch (error) {
      assert.ok(error instanceof ServiceError, String(error));
      const said = JSON.stringify({ message: error.message, details: error.details });
      assert.doesNotMatch(said, new RegExp(`${SECRET}|example\\.net|10\\.20|https?:`));
      return error;
    }
    assert.fail(`${url} was accepted`);
  }

  it('should pin a public destination to the address it resolved to', async () => {
    const destination = await uploader.checkDestination(`https://storage.example.net/b/doc.pdf?X-Sig=${SECRET}`);
    assert.equal(destination.address, '93.184.216.34');
    assert.equal(destination.url.href, `https://storage.example.net/b/doc.pdf?X-Sig=${SECRET}`);
  });

  it('should refuse non-public, blocked, IPv6-only and non-https destinations with 400 invalid_upload_url, connecting nowhere', async () => {
    const connect = net.Socket.prototype.connect;
    const attempts: unknown[] = [];
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      attempts.push(args[0]);
      process.nextTick(() => this.destroy(new Error('blocked by the test')));
      return this;
    } as typeof connect;
    try {
      for (const url of [
        `https://private.example.net/doc.pdf?${SECRET}`,
        `https://rebind.example.net/doc.pdf?${SECRET}`,
        `https://v6only.example.net/doc.pdf?${SECRET}`,
        `https://missing.example.net/doc.pdf?${SECRET}`,
        `https://a.blocked.example.net/doc.pdf?${SECRET}`,
        `https://10.20.30.40/doc.pdf?${SECRET}`,
        `https://169.254.169.254/latest?${SECRET}`,
        `https://[::ffff:10.20.30.40]/doc.pdf?${SECRET}`,
        `https://localhost/doc.pdf?${SECRET}`,
        `http://storage.example.net/doc.pdf?${SECRET}`,
      ]) {
        const error = await refusal(url);
        assert.deepEqual([error.status, error.code, error.details.reason], [400, 'invalid_request', 'invalid_upload_url'], url);
      }
    } finally {
      net.Socket.prototype.connect = connect;
    }
    assert.deepEqual(attempts, []);
  });

  it('should answer 503 quota_unavailable when DNS cannot answer, logging no URL', async () => {
    const error = await refusal(`https://broken.example.net/doc.pdf?${SECRET}`);
    assert.deepEqual([error.status, error.code], [503, 'quota_unavailable']);
    assert.match(error.message, /upload address could not be checked/);
    assert.doesNotMatch(JSON.stringify(logs), new RegExp(`${SECRET}|example\\.net`));
  });
});
