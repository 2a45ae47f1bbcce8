/**
 * What one deployment decides about outbound requests: which domains are refused beyond the
 * built-in special-use names, which DNS servers answer, and the time bounds of remote resources
 * (docs/api.md "Limits" leaves them to the deployment). Plain data, so it can be handed to
 * render workers.
 */
import { domainToASCII } from 'node:url';

export interface NetSettings {
  /** Refused with all their subdomains, on top of BUILT_IN_BLOCKED_DOMAINS. */
  blockedDomains: string[];
  /** `host` or `host:port` of the DNS servers to ask; undefined: the system's (resolv.conf). */
  dnsServers: string[] | undefined;
  /** Test-only: loopback addresses (127.0.0.0/8) pass the address policy. Only the environment sets it. */
  allowLoopback: boolean;
  /** Bound on one remote resource, from resolution to its last byte. */
  resourceTimeoutMs: number;
  /** Bound on all remote resources of one render together; loads past it fail as `timeout`. */
  resourcesTimeoutMs: number;
}

/** Special-use names that never lead to a public host (RFC 6761, 6762, 8375) and common private suffixes. */
export const BUILT_IN_BLOCKED_DOMAINS = ['localhost', 'localdomain', 'local', 'internal', 'home.arpa', 'test', 'invalid'];

export const DEFAULT_NET_SETTINGS: Readonly<NetSettings> = Object.freeze({
  blockedDomains: [],
  dnsServers: undefined,
  allowLoopback: false,
  resourceTimeoutMs: 15_000,
  resourcesTimeoutMs: 45_000,
});

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

/**
 * An IP address, `IPv4:port` or `[address]:port`, as the resolver takes them. Checked here
 * because the resolver checks only at the first lookup, and not all of it: a name throws then,
 * port 0 aborts the whole process (a failed assertion in Node's c-ares binding), and a port past
 * 65535 is quietly taken modulo 65536.
 */
function checkDnsServer(server: string): string {
  const { host, port = '53' } = /^\[(?<host>[^\]]+)\](?::(?<port>\d+))?$/.exec(server)?.groups ??
    /^(?<host>[^:]+):(?<port>\d+)$/.exec(server)?.groups ?? { host: server };
  // node:net only here: loading it (and the socket bindings it brings) is ~1.6 ms of every cold `quire render`.
  if (process.getBuiltinModule('node:net').isIP(host!) === 0 || Number(port) < 1 || Number(port) > 65_535) {
    throw new Error(`QUIRE_NET_DNS_SERVERS: "${server}" is not an IP address with an optional port (1-65535)`);
  }
  return server;
}

/** `*.Bücher.Example.` → `xn--bcher-kva.example`: how domains are compared (as the URL parser writes host names). */
export function normalizeDomain(domain: string): string {
  const ascii = domainToASCII(
    domain
      .trim()
      .replace(/^\*?\.+/, '')
      .replace(/\.+$/, ''),
  );
  if (ascii === '') throw new Error(`"${domain}" is not a domain name`);
  return ascii;
}
