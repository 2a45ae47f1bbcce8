/**
 * `remoteLoader`, the library's SSRF-safe loader of `http` and `https` resources: the options
 * are checked here, and the loader itself (remote-loader.ts, with HTTP, TLS and DNS) is loaded
 * with the first remote resource a document asks for, so that a render with none pays nothing.
 */
import { InvalidOptionError } from '../../errors.js';
import { ResourceLoadError, type LoadContext, type LoadedResource, type ResourceLoader } from '../loader.js';
import { DEFAULT_NET_SETTINGS, isDnsServer, normalizeDomain } from './net-settings.js';
import type { RemoteLoader, RemoteLoaderSettings } from './remote-loader.js';
import { RESOURCE_SCHEMES } from './resource-schemes.js';

/** The defaults of `remoteLoader`: those of the service and of `quire render`. */
export const DEFAULT_MAX_REMOTE_RESOURCES = 50;
export const DEFAULT_MAX_REMOTE_BYTES = 100 * 1024 * 1024;
export const DEFAULT_USER_AGENT = 'Quire (resource fetch)';

/** What a library user may tell `remoteLoader`; every field has the service's default. */
export interface RemoteLoaderOptions {
  /** Distinct URLs (fragments aside) one loader fetches; the next throws TooManyRemoteResourcesError. Default 50. */
  maxResources?: number;
  /**
   * Bytes of all fetched bodies together, named by ResourceBudgetError when passed; default
   * 100 MiB. A render's `limits.resourceBytes` bounds each body too.
   */
  maxBytes?: number;
  /** Bound on one resource, from resolving its host to its last byte; default 15 000 ms. */
  timeoutMs?: number;
  /** Bound on all of the loader's resources together, from its first fetch; default 45 000 ms. */
  totalTimeoutMs?: number;
  /**
   * Lets loopback (127/8), private (RFC 1918) and shared (100.64/10) addresses through, for an
   * intranet. Off by default: a document's links then reach public hosts only. Link-local
   * addresses (169.254/16, the cloud metadata address), multicast, broadcast, reserved ones,
   * IPv6 and special-use names (localhost, *.local, *.internal, …) are refused either way.
   */
  allowPrivate?: boolean;
  /** Domains refused with their subdomains, beside the special-use ones. */
  blockedDomains?: readonly string[];
  /** DNS servers to ask (`address` or `address:port`); default: the system's. */
  dnsServers?: readonly string[];
  /** Default `Quire (resource fetch)`. */
  userAgent?: string;
  /** Sent with every request (an API key for an image server, a request id). */
  headers?: Readonly<Record<string, string>>;
  /** PEM certificates trusted for https in place of Node's own list. */
  trustedCertificates?: readonly string[];
}

/** A remote loader: what `remoteLoader` returns. */
export interface RemoteResourceLoader extends ResourceLoader {
  /** Requests sent to remote hosts so far. */
  readonly requests: number;
}

/**
 * The SSRF-safe remote loader for one render (it counts that render's resources, bytes and
 * time: make one per render), with the service's policy and bounds unless `options` change
 * them. Combine it with a folder loader for local images:
 * `combineLoaders(remoteLoader(), folderLoader('./docs'))`.
 */
export function remoteLoader(options: RemoteLoaderOptions = {}): RemoteResourceLoader {
  const settings = loaderSettings(options);
  let loader: Promise<RemoteLoader> | undefined;
  let loaded: RemoteLoader | undefined;
  return {
    get requests() {
      return loaded?.requests ?? 0;
    },
    async load(url: string, context: LoadContext): Promise<LoadedResource> {
      if (!URL.canParse(url) || !RESOURCE_SCHEMES.includes(new URL(url).protocol)) {
        throw new ResourceLoadError('unsupported_scheme', 'only http and https resources are loaded');
      }
      loader ??= import('./remote-loader.js').then(({ RemoteLoader }) => (loaded = new RemoteLoader(settings)));
      return (await loader).load(url, context);
    },
  };
}

function loaderSettings(options: RemoteLoaderOptions): RemoteLoaderSettings {
  if (options === null || typeof options !== 'object') throw new InvalidOptionError('remoteLoader', 'the options must be an object');
  const count = (key: 'maxResources' | 'maxBytes' | 'timeoutMs' | 'totalTimeoutMs', fallback: number): number => {
    const value = options[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
      throw new InvalidOptionError(key, `${key} must be a whole number of at least 1`);
    return value;
  };
  const dnsServers = options.dnsServers?.map((server) => {
    if (typeof server !== 'string' || !isDnsServer(server))
      throw new InvalidOptionError('dnsServers', `"${String(server)}" is not an IP address with an optional port (1-65535)`);
    return server;
  });
  const blockedDomains = (options.blockedDomains ?? []).map((domain) => {
    try {
      return normalizeDomain(domain);
    } catch (error) {
      throw new InvalidOptionError('blockedDomains', (error as Error).message);
    }
  });
  if (options.allowPrivate !== undefined && typeof options.allowPrivate !== 'boolean')
    throw new InvalidOptionError('allowPrivate', 'allowPrivate must be true or false');
  if (options.userAgent !== undefined && (typeof options.userAgent !== 'string' || !/^[\x20-\x7e]+$/.test(options.userAgent)))
    throw new InvalidOptionError('userAgent', 'userAgent must be printable ASCII text');
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    // As HTTP allows them: a token for the name, no line break in the value.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || typeof value !== 'string' || !/^[\t\x20-\x7e\x80-\xff]*$/.test(value))
      throw new InvalidOptionError('headers', `the header "${name}" is not a header name with a one-line value`);
  }
  if (
    options.trustedCertificates !== undefined &&
    (!Array.isArray(options.trustedCertificates) || options.trustedCertificates.some((pem) => typeof pem !== 'string'))
  )
    throw new InvalidOptionError('trustedCertificates', 'trustedCertificates must be an array of PEM certificates');
  const trusted = options.trustedCertificates && [...options.trustedCertificates];
  return {
    net: {
      ...DEFAULT_NET_SETTINGS,
      blockedDomains,
      dnsServers,
      allowPrivate: options.allowPrivate === true,
      resourceTimeoutMs: count('timeoutMs', DEFAULT_NET_SETTINGS.resourceTimeoutMs),
      resourcesTimeoutMs: count('totalTimeoutMs', DEFAULT_NET_SETTINGS.resourcesTimeoutMs),
    },
    maxResources: count('maxResources', DEFAULT_MAX_REMOTE_RESOURCES),
    maxBytes: count('maxBytes', DEFAULT_MAX_REMOTE_BYTES),
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    ...(options.headers && { headers: { ...options.headers } }),
    ...(trusted && { trustedCertificates: () => trusted }),
  };
}
