/**
 * What the address policy and the remote loader are told about outbound requests: which domains
 * are refused beyond the built-in special-use names, which DNS servers answer, which addresses
 * beside public ones may be reached, and the time bounds of remote resources. Plain data, so it
 * can be handed to worker threads. The service reads its own from the environment
 * (src/net/net-settings.ts); a library user gives `remoteLoader` options.
 */
import { domainToASCII } from 'node:url';

export interface NetSettings {
  /** Refused with all their subdomains, on top of BUILT_IN_BLOCKED_DOMAINS. */
  blockedDomains: string[];
  /** `host` or `host:port` of the DNS servers to ask; undefined: the system's (resolv.conf). */
  dnsServers: string[] | undefined;
  /** Test-only: loopback addresses (127.0.0.0/8) pass the address policy. Only the environment sets it. */
  allowLoopback: boolean;
  /**
   * Loopback (127.0.0.0/8), private (10/8, 172.16/12, 192.168/16) and shared (100.64/10)
   * addresses pass the address policy: a library user's explicit choice, for an intranet.
   * Link-local (the cloud metadata address), multicast, broadcast and reserved ones never do.
   */
  allowPrivate?: boolean;
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
 * An IP address, `IPv4:port` or `[address]:port`, as the resolver takes them. Checked before the
 * resolver sees it, because the resolver checks only at the first lookup, and not all of it: a
 * name throws then, port 0 aborts the whole process (a failed assertion in Node's c-ares binding),
 * and a port past 65535 is quietly taken modulo 65536.
 */
export function isDnsServer(server: string): boolean {
  const { host, port = '53' } = /^\[(?<host>[^\]]+)\](?::(?<port>\d+))?$/.exec(server)?.groups ??
    /^(?<host>[^:]+):(?<port>\d+)$/.exec(server)?.groups ?? { host: server };
  // node:net only here: loading it (and the socket bindings it brings) is ~1.6 ms of every cold `quire render`.
  return process.getBuiltinModule('node:net').isIP(host!) !== 0 && Number(port) >= 1 && Number(port) <= 65_535;
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
