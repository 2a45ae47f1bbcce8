/**
 * The address policy every outbound request passes: public unicast IPv4 only. Host names come
 * from the WHATWG URL parser, which has already turned decimal, octal, hex and short forms of an
 * IPv4 address into dotted quads; whatever still reads as an address to ipaddr.js but is not a
 * plain dotted quad is refused rather than guessed at.
 */
import ipaddr from 'ipaddr.js';
import { DestinationRefused } from './destination-errors.js';
import { BUILT_IN_BLOCKED_DOMAINS, type NetSettings } from './net-settings.js';

export type CheckedHost = { kind: 'address'; address: string } | { kind: 'name'; name: string };

type RangeSettings = Pick<NetSettings, 'allowLoopback' | 'allowPrivate'>;
type PolicySettings = RangeSettings & Pick<NetSettings, 'blockedDomains'>;

/** The ranges `allowPrivate` opens: never link-local (cloud metadata), multicast, broadcast or reserved. */
const PRIVATE_RANGES: ReadonlySet<string> = new Set(['loopback', 'private', 'carrierGradeNat']);

/**
 * A dotted-quad IPv4 address in ipaddr.js's `unicast` range (or loopback, when a test allows it;
 * or loopback, private and shared, when the loader's user allows them).
 */
export function isPublicAddress(address: string, settings: RangeSettings): boolean {
  if (!ipaddr.IPv4.isValidFourPartDecimal(address)) return false;
  // process() first (FINDINGS): a range is only meaningful on the address's canonical kind.
  const parsed = ipaddr.process(address);
  if (parsed.kind() !== 'ipv4') return false;
  const range = parsed.range();
  return range === 'unicast' || (settings.allowLoopback && range === 'loopback') || (settings.allowPrivate === true && PRIVATE_RANGES.has(range));
}

/** A URL's `hostname` as an address to connect to, or a name still to resolve; throws DestinationRefused. */
export function checkHost(hostname: string, settings: PolicySettings): CheckedHost {
  if (hostname.startsWith('[')) throw new DestinationRefused('ipv6');
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname)) {
    if (!isPublicAddress(hostname, settings)) throw new DestinationRefused('address');
    return { kind: 'address', address: hostname };
  }
  if (ipaddr.isValid(hostname)) throw new DestinationRefused('address');
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  // A single label is never a public host; a resolver would try it under its search domains.
  if (!name.includes('.') || isBlockedDomain(name, settings.blockedDomains)) throw new DestinationRefused('blocked_domain');
  return { kind: 'name', name };
}

/** The name is a blocked domain or one of its subdomains. */
export function isBlockedDomain(name: string, blocked: readonly string[]): boolean {
  return [...BUILT_IN_BLOCKED_DOMAINS, ...blocked].some((domain) => name === domain || name.endsWith(`.${domain}`));
}
