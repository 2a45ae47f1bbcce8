/**
 * A ResourceLoader for `http` and `https` resources that is safe to point at documents from
 * strangers (SSRF): each host passes the address policy before anything connects (public IPv4
 * only, unless the caller allows private addresses), the connection goes to exactly the address
 * checked (no second lookup: DNS rebinding), redirects are never followed, each distinct URL is
 * fetched once, bytes are counted against the budget as they arrive, at most `maxResources`
 * distinct URLs, within a bound per resource and a bound for all of them together. Nothing is
 * stored. The service's loader (src/net/remote-loader.ts) is this one with its plan's settings;
 * a library user's (`remoteLoader`, remote-loader-options.ts) loads this module with its first
 * remote resource, so that a render with none never loads HTTP, TLS and DNS.
 *
 * Both schemes are allowed for images: an image is read, never trusted, and plain-http images
 * are still common; the address policy is the same for both.
 */
import { RenderTimeoutError, ResourceBudgetError, TooManyRemoteResourcesError } from '../../errors.js';
import { ResourceLoadError, type LoadContext, type LoadedResource, type ResourceLoader } from '../loader.js';
import { resolveDestination, type Destination } from './destination.js';
import { DestinationRefused, DestinationUnchecked } from './destination-errors.js';
import type { NetSettings } from './net-settings.js';
import { exchange, ExchangeError } from './pinned-exchange.js';
import { RESOURCE_SCHEMES } from './resource-schemes.js';

const CONNECT_TIMEOUT_MS = 10_000;

/** Everything a RemoteLoader is told; `remoteLoader()` (remote-loader-options.ts) fills it from a library user's options. */
export interface RemoteLoaderSettings {
  /** The address policy and the time bounds. */
  net: NetSettings;
  /** Distinct URLs (fragments aside) one loader fetches; the next throws TooManyRemoteResourcesError. */
  maxResources: number;
  /** Bytes all fetched bodies together may hold, named by ResourceBudgetError when passed. */
  maxBytes: number;
  userAgent: string;
  /** Sent with every request besides Accept, Accept-Encoding and User-Agent. */
  headers?: Readonly<Record<string, string>>;
  /** For https: the certificates trusted, in place of Node's own list; asked once, at the first fetch. */
  trustedCertificates?: () => readonly string[] | undefined;
  /** Told when a fetch starts and when it ends, however it ends. */
  onFetch?: (event: 'start' | 'end') => void;
}

export class RemoteLoader implements ResourceLoader {
  private readonly loads = new Map<string, Promise<LoadedResource>>();
  private deadline: number | undefined;
  private started = 0;
  private fetched = 0;
  private ca: { certificates: readonly string[] | undefined } | undefined;

  constructor(private readonly settings: RemoteLoaderSettings) {}

  /** Requests sent to remote hosts so far. */
  get requests(): number {
    return this.started;
  }

  async load(url: string, context: LoadContext): Promise<LoadedResource> {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || !RESOURCE_SCHEMES.includes(parsed.protocol)) {
      throw new ResourceLoadError('unsupported_scheme', 'only http and https resources are loaded');
    }
    parsed.hash = ''; // never sent: the same resource
    let load = this.loads.get(parsed.href);
    if (!load) {
      if (this.loads.size >= this.settings.maxResources) throw new TooManyRemoteResourcesError(this.settings.maxResources);
      load = this.fetch(parsed, context);
      this.loads.set(parsed.href, load);
    }
    return load;
  }

  private async fetch(url: URL, context: LoadContext): Promise<LoadedResource> {
    this.settings.onFetch?.('start');
    try {
      return await this.fetchChecked(url, context);
    } finally {
      this.settings.onFetch?.('end');
    }
  }

  private async fetchChecked(url: URL, context: LoadContext): Promise<LoadedResource> {
    const { net } = this.settings;
    const startedAt = performance.now();
    this.deadline ??= startedAt + net.resourcesTimeoutMs;
    const timeoutMs = Math.floor(Math.min(net.resourceTimeoutMs, this.deadline - startedAt));
    if (timeoutMs <= 0) throw new ResourceLoadError('timeout', 'the time for remote resources is used up');

    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
    const destination = await this.check(url, signal, context.signal);
    const remainingMs = Math.max(1, Math.floor(timeoutMs - (performance.now() - startedAt)));
    const maxBodyBytes = Math.max(0, Math.min(context.remainingBytes, this.settings.maxBytes - this.fetched));
    this.started += 1;
    this.ca ??= { certificates: this.settings.trustedCertificates?.() };
    let answer: Awaited<ReturnType<typeof exchange>>;
    try {
      answer = await exchange(destination, {
        method: 'GET',
        headers: {
          Accept: 'image/png, image/jpeg, image/svg+xml, */*;q=0.1',
          'Accept-Encoding': 'identity',
          'User-Agent': this.settings.userAgent,
          ...this.settings.headers,
        },
        connectTimeoutMs: Math.min(CONNECT_TIMEOUT_MS, remainingMs),
        timeoutMs: remainingMs,
        maxBodyBytes,
        ...(context.signal && { signal: context.signal }),
        ...(this.ca.certificates && { ca: this.ca.certificates }),
      });
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      if (error.failure === 'too_large') throw new ResourceBudgetError(this.settings.maxBytes);
      if (error.failure === 'aborted') throw new RenderTimeoutError();
      if (error.failure === 'network') throw new ResourceLoadError('network_error', 'the connection failed');
      throw new ResourceLoadError('timeout', 'the server did not answer in time');
    }
    if (answer.status === 404 || answer.status === 410) throw new ResourceLoadError('not_found', `the server answered ${answer.status}`);
    if (answer.status !== 200) throw new ResourceLoadError('http_error', `the server answered ${answer.status}`);
    this.fetched += answer.body!.length;
    // Loads running side by side were each given what was left when they started.
    if (this.fetched > this.settings.maxBytes) throw new ResourceBudgetError(this.settings.maxBytes);
    const mediaType = answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    return { bytes: answer.body!, ...(mediaType && { mediaType }) };
  }

  /** The destination, or the load failure its refusal means. */
  private async check(url: URL, signal: AbortSignal, renderSignal: AbortSignal | undefined): Promise<Destination> {
    try {
      return await resolveDestination(url, RESOURCE_SCHEMES, this.settings.net, signal);
    } catch (error) {
      if (renderSignal?.aborted) throw new RenderTimeoutError();
      if (error instanceof DestinationRefused) {
        if (error.reason === 'no_ipv4') throw new ResourceLoadError('not_found', 'the host has no IPv4 address');
        throw new ResourceLoadError('forbidden', 'the host is not a public address');
      }
      if (error instanceof DestinationUnchecked) {
        if (error.reason === 'dns_timeout') throw new ResourceLoadError('timeout', 'the host name did not resolve in time');
        throw new ResourceLoadError('network_error', 'the host name could not be resolved');
      }
      throw error;
    }
  }
}
