/**
 * What one deployment decides about outbound requests, read from the environment: the settings
 * themselves (the address policy's and the remote loader's) are the engine's
 * (engine/resources/remote/net-settings.ts).
 */
import { DEFAULT_NET_SETTINGS, isDnsServer, normalizeDomain, type NetSettings } from '@quire/engine/net';

export { BUILT_IN_BLOCKED_DOMAINS, DEFAULT_NET_SETTINGS, normalizeDomain, type NetSettings } from '@quire/engine/net';

/**
 * QUIRE_NET_BLOCKED_DOMAINS and QUIRE_NET_DNS_SERVERS (comma-separated),
 * QUIRE_NET_RESOURCE_TIMEOUT_S, QUIRE_NET_RESOURCES_TIMEOUT_S, and the test-only
 * QUIRE_NET_ALLOW_LOOPBACK=1.
 */
export function netSettingsFromEnv(env: NodeJS.ProcessEnv): NetSettings {
  const list = (name: string): string[] | undefined => {
    const raw = env[name]?.trim();
    if (!raw) return undefined;
    return raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  };
  const seconds = (name: string, fallbackMs: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallbackMs;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
    return value * 1000;
  };
  const loopback = env.QUIRE_NET_ALLOW_LOOPBACK;
  if (loopback !== undefined && loopback !== '' && loopback !== '0' && loopback !== '1') {
    throw new Error('QUIRE_NET_ALLOW_LOOPBACK must be 1 or 0');
  }
  return {
    blockedDomains: (list('QUIRE_NET_BLOCKED_DOMAINS') ?? []).map(normalizeDomain),
    dnsServers: list('QUIRE_NET_DNS_SERVERS')?.map(checkDnsServer),
    allowLoopback: loopback === '1',
    resourceTimeoutMs: seconds('QUIRE_NET_RESOURCE_TIMEOUT_S', DEFAULT_NET_SETTINGS.resourceTimeoutMs),
    resourcesTimeoutMs: seconds('QUIRE_NET_RESOURCES_TIMEOUT_S', DEFAULT_NET_SETTINGS.resourcesTimeoutMs),
  };
}

function checkDnsServer(server: string): string {
  if (!isDnsServer(server)) throw new Error(`QUIRE_NET_DNS_SERVERS: "${server}" is not an IP address with an optional port (1-65535)`);
  return server;
}
