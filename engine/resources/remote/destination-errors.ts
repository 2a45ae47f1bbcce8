/**
 * The two ways a destination check ends without an address to connect to. Neither carries the
 * URL or the host, so nothing derived from them can leak it.
 */
export type RefusalReason =
  /** A scheme this kind of request may not use. */
  | 'scheme'
  /** `user:password@` in the URL. */
  | 'credentials'
  /** An IPv6 literal, IPv4-mapped and IPv4-compatible forms included: only IPv4 is ever reached. */
  | 'ipv6'
  /** A loopback, private, link-local, shared, multicast, reserved or documentation address. */
  | 'address'
  /** A blocked domain, a special-use name or a single-label name. */
  | 'blocked_domain'
  /** The name has no IPv4 address (no A record, or no such name). */
  | 'no_ipv4';

/** The destination is not allowed: for an upload, a 400 before anything is reserved. */
export class DestinationRefused extends Error {
  constructor(readonly reason: RefusalReason) {
    super(`destination refused: ${reason}`);
  }
}

/** The check could not run (DNS timed out or failed): nothing is known about the destination. */
export class DestinationUnchecked extends Error {
  constructor(
    readonly reason: 'dns_timeout' | 'dns_error',
    detail: string,
  ) {
    super(`destination unchecked: ${reason} (${detail})`);
  }
}
