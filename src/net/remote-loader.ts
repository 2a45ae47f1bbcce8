/**
 * The engine's ResourceLoader for one render in the service: `http` and `https` images through
 * the address policy, each distinct URL fetched once, bytes counted against the document's
 * resource budget as they arrive, at most MAX_REMOTE_RESOURCES distinct URLs, within a bound per
 * resource and a bound for all of them together. Nothing is stored.
 *
 * Both schemes are allowed for images: an image is read, never trusted, and plain-http images
 * are still common; the address policy is the same for both.
 */
import { RenderTimeoutError, ResourceBudgetError } from '@quire/engine';
import { ResourceLoadError, type LoadContext, type LoadedResource, type ResourceLoader } from '@quire/engine';
import { MAX_REMOTE_RESOURCES } from '../limits/plans.js';
import { resolveDestination, type Destination } from './destination.js';
import { DestinationRefused, DestinationUnchecked } from './destination-errors.js';
import type { NetSettings } from './net-settings.js';
import { exchange, ExchangeError } from './pinned-exchange.js';
import { RESOURCE_SCHEMES } from './resource-schemes.js';

const CONNECT_TIMEOUT_MS = 10_000;

/** Thrown through the engine (it is not a load failure) and answered 422 `too_many_resources`. */
export class TooManyRemoteResourcesError extends Error {
  constructor(readonly limit: number) {
    super(`the document links more than ${limit} remote resources`);
  }
}

export interface RemoteLoaderOptions {
  settings: NetSettings;
  /** Sent as `X-Service-Fetch-Id` with every request: a per-render random id, naming no account. */
  fetchId: string;
  /** The plan loads remote resources; when it does not, each fails as `disabled`. */
  enabled: boolean;
  /** The document's whole resource budget, named by ResourceBudgetError. */
  budgetBytes: number;
  /** For https: the certificates trusted, in place of Node's own list; asked once, at the first fetch. */
  trustedCertificates?: () => readonly string[] | undefined;
  /** Told when a fetch starts and when it ends, however it ends. */
  onFetch?: (event: 'start' | 'end') => void;
  /**
   * The most distinct URLs one render may load; default MAX_REMOTE_RESOURCES, the service's
   * limit for every plan. The command line counts its own (its limit is the user's to set).
   */
  maxResources?: number;
}

export class RemoteLoader implements ResourceLoader {
  private readonly loads = new Map<string, Promise<LoadedResource>>();
  private deadline: number | undefined;
  private started = 0;
  private ca: { certificates: readonly string[] | undefined } | undefined;

  constructor(private readonly options: RemoteLoaderOptions) {}

  /** Requests sent to remote hosts so far. */
  get requests(): number {
    return this.started;
  }

  async load(url: string, context: LoadContext): Promise<LoadedResource> {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || !RESOURCE_SCHEMES.includes(parsed.protocol)) {
      throw new ResourceLoadError('unsupported_scheme', 'only http and https resources are loaded');
    }
    if (!this.options.enabled)
      throw new ResourceLoadError(
        'disabled',
        'linked images are not loaded for this account (its plan does not load them, or no document is left in its period)',
      );
    parsed.hash = ''; // never sent: the same resource
    let load = this.loads.get(parsed.href);
    if (!load) {
      const most = this.options.maxResources ?? MAX_REMOTE_RESOURCES;
      if (this.loads.size >= most) throw new TooManyRemoteResourcesError(most);
      load = this.fetch(parsed, context);
      this.loads.set(parsed.href, load);
    }
    return load;
  }

  private async fetch(url: URL, context: LoadContext): Promise<LoadedResource> {
    this.options.onFetch?.('start');
    try {
      return await this.fetchChecked(url, context);
    } finally {
      this.options.onFetch?.('end');
    }
  }

  private async fetchChecked(url: URL, context: LoadContext): Promise<LoadedResource> {
    const startedAt = performance.now();
    this.deadline ??= startedAt + this.options.settings.resourcesTimeoutMs;
    const timeoutMs = Math.floor(Math.min(this.options.settings.resourceTimeoutMs, this.deadline - startedAt));
    if (timeoutMs <= 0) throw new ResourceLoadError('timeout', 'the time for remote resources is used up');

    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
    const destination = await this.check(url, signal, context.signal);
    const remainingMs = Math.max(1, Math.floor(timeoutMs - (performance.now() - startedAt)));
    this.started += 1;
    this.ca ??= { certificates: this.options.trustedCertificates?.() };
    try {
      const answer = await exchange(destination, {
        method: 'GET',
        headers: {
          Accept: 'image/png, image/jpeg, image/svg+xml, */*;q=0.1',
          'Accept-Encoding': 'identity',
          'User-Agent': 'Quire (resource fetch)',
          'X-Service-Fetch-Id': this.options.fetchId,
        },
        connectTimeoutMs: Math.min(CONNECT_TIMEOUT_MS, remainingMs),
        timeoutMs: remainingMs,
        maxBodyBytes: context.remainingBytes,
        ...(context.signal && { signal: context.signal }),
        ...(this.ca.certificates && { ca: this.ca.certificates }),
      });
      if (answer.status === 404 || answer.status === 410) throw new ResourceLoadError('not_found', `the server answered ${answer.status}`);
      if (answer.status !== 200) throw new ResourceLoadError('http_error', `the server answered ${answer.status}`);
      const mediaType = answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      return { bytes: answer.body!, ...(mediaType && { mediaType }) };
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      if (error.failure === 'too_large') throw new ResourceBudgetError(this.options.budgetBytes);
      if (error.failure === 'aborted') throw new RenderTimeoutError();
      if (error.failure === 'network') throw new ResourceLoadError('network_error', 'the connection failed');
      throw new ResourceLoadError('timeout', 'the server did not answer in time');
    }
  }

  /** The destination, or the load failure its refusal means. */
  private async check(url: URL, signal: AbortSignal, renderSignal: AbortSignal | undefined): Promise<Destination> {
    try {
      return await resolveDestination(url, RESOURCE_SCHEMES, this.options.settings, signal);
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
