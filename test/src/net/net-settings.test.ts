import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deploymentFromEnv } from '../../../src/config/deployment.js';
import { DEFAULT_NET_SETTINGS, netSettingsFromEnv } from '../../../src/net/net-settings.js';

describe('outbound settings from the environment', () => {
  it('should default to no loopback, the system resolver, upload on, and the documented resource bounds', () => {
    const deployment = deploymentFromEnv({});
    assert.equal(deployment.upload, true);
    assert.deepEqual(deployment.net, { ...DEFAULT_NET_SETTINGS });
    assert.equal(deployment.net.allowLoopback, false);
    assert.equal(deployment.net.resourceTimeoutMs, 15_000);
    assert.equal(deployment.net.resourcesTimeoutMs, 45_000);
  });

  it('should read blocked domains as compared (lower-case, punycode, no wildcard or trailing dot), DNS servers and bounds', () => {
    const settings = netSettingsFromEnv({
      QUIRE_NET_BLOCKED_DOMAINS: ' Corp.Example.COM, *.bücher.example. ,,.evil.example',
      QUIRE_NET_DNS_SERVERS: '127.0.0.1:5353, 9.9.9.9, 2620:fe::fe, [2620:fe::9]:53',
      QUIRE_NET_RESOURCE_TIMEOUT_S: '2.5',
      QUIRE_NET_RESOURCES_TIMEOUT_S: '20',
      QUIRE_NET_ALLOW_LOOPBACK: '1',
    });
    assert.deepEqual(settings, {
      blockedDomains: ['corp.example.com', 'xn--bcher-kva.example', 'evil.example'],
      dnsServers: ['127.0.0.1:5353', '9.9.9.9', '2620:fe::fe', '[2620:fe::9]:53'],
      allowLoopback: true,
      resourceTimeoutMs: 2_500,
      resourcesTimeoutMs: 20_000,
    });
  });

  it('should turn upload delivery off with QUIRE_UPLOAD=off and refuse other spellings', () => {
    assert.equal(deploymentFromEnv({ QUIRE_UPLOAD: 'off' }).upload, false);
    assert.equal(deploymentFromEnv({ QUIRE_UPLOAD: 'on' }).upload, true);
    assert.throws(() => deploymentFromEnv({ QUIRE_UPLOAD: 'no' }), /QUIRE_UPLOAD/);
  });

  it('should refuse values it cannot read rather than guess', () => {
    assert.throws(() => netSettingsFromEnv({ QUIRE_NET_ALLOW_LOOPBACK: 'yes' }), /QUIRE_NET_ALLOW_LOOPBACK/);
    assert.throws(() => netSettingsFromEnv({ QUIRE_NET_RESOURCE_TIMEOUT_S: '0' }), /QUIRE_NET_RESOURCE_TIMEOUT_S/);
    assert.throws(() => netSettingsFromEnv({ QUIRE_NET_BLOCKED_DOMAINS: 'a b.example' }), /not a domain/);
    assert.equal(netSettingsFromEnv({ QUIRE_NET_ALLOW_LOOPBACK: '0' }).allowLoopback, false);
  });

  it('should refuse at start-up a DNS server the resolver would throw on, or abort the process for, at the first lookup', () => {
    for (const servers of ['dns.example.net', '127.0.0.1:0', '127.0.0.1:65536', '[::1]:0', '9.9.9.9:', '[dns.example.net]:53']) {
      assert.throws(() => netSettingsFromEnv({ QUIRE_NET_DNS_SERVERS: `9.9.9.9, ${servers}` }), /QUIRE_NET_DNS_SERVERS: ".*" is not an IP address/, servers);
    }
  });
});
