/**
 * The destination check of every outbound request: scheme, no credentials, host through the
 * address policy, the name resolved, and every one of its addresses public. The result names the
 * one address to connect to, so the connection never resolves the name again (DNS rebinding).
 */
import { checkHost, isPublicAddress } from './address-policy.js';
import { DestinationRefused } from './destination-errors.js';
import type { NetSettings } from './net-settings.js';
import { resolveIPv4 } from './resolve-ipv4.js';

export interface Destination {
  url: URL;
  /** The checked IPv4 address the request connects to. */
  address: string;
}

export async function resolveDestination(url: URL, schemes: readonly string[], settings: NetSettings, signal?: AbortSignal): Promise<Destination> {
  if (!schemes.includes(url.protocol)) throw new DestinationRefused('scheme');
  if (url.username !== '' || url.password !== '') throw new DestinationRefused('credentials');
  const host = checkHost(url.hostname, settings);
  if (host.kind === 'address') return { url, address: host.address };
  const addresses = await resolveIPv4(host.name, { servers: settings.dnsServers, ...(signal && { signal }) });
  if (addresses.length === 0) throw new DestinationRefused('no_ipv4');
  // One private record is enough to refuse: which one a client would use is not ours to guess.
  if (!addresses.every((address) => isPublicAddress(address, settings))) throw new DestinationRefused('address');
  return { url, address: addresses[0]! };
}
