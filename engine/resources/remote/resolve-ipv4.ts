/**
 * A host name's IPv4 addresses, asked of DNS through a cancellable c-ares resolver — never
 * `dns.lookup`, which runs on the thread pool and cannot be stopped (FINDINGS) — within a bound.
 */
import { Resolver } from 'node:dns/promises';
import { DestinationUnchecked } from './destination-errors.js';

/** docs/api.md "Limits": the host must resolve within 10 seconds. */
export const DNS_TIMEOUT_MS = 10_000;

/** One query's first wait; c-ares retries with longer waits, and the bound above cuts it all short. */
const QUERY_TIMEOUT_MS = 2_000;
const QUERY_TRIES = 3;

/** Answers that mean "this name has no IPv4 address", as opposed to "DNS could not answer". */
const NO_ADDRESS = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

export interface ResolveOptions {
  /** DNS servers to ask; undefined: the system's. */
  servers: string[] | undefined;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Every A record of `name` ([] when it has none); throws DestinationUnchecked when DNS fails or is too slow. */
export async function resolveIPv4(name: string, options: ResolveOptions): Promise<string[]> {
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: QUERY_TRIES });
  if (options.servers) resolver.setServers(options.servers);
  let timedOut = false;
  const cancel = () => resolver.cancel();
  const timer = setTimeout(() => {
    timedOut = true;
    cancel();
  }, options.timeoutMs ?? DNS_TIMEOUT_MS);
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    // The trailing dot makes the name absolute, so no search domain is ever appended to it.
    return await resolver.resolve4(`${name}.`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    if (NO_ADDRESS.has(code)) return [];
    const slow = timedOut || code === 'ETIMEOUT' || options.signal?.aborted === true;
    throw new DestinationUnchecked(slow ? 'dns_timeout' : 'dns_error', code);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}
