/**
 * The engine's remote loader (engine/resources/remote/) as the service runs it for one render: the
 * deployment's address policy and time bounds, the plan's MAX_REMOTE_RESOURCES distinct URLs,
 * the document's resource budget, `X-Service-Fetch-Id` on every request, and nothing fetched at
 * all for an account whose plan loads no remote resources.
 */
import type { LoadContext, LoadedResource, ResourceLoader } from '@quire/engine';
import { ResourceLoadError } from '@quire/engine';
import { TooManyRemoteResourcesError } from '@quire/engine';
import { DEFAULT_USER_AGENT } from '@quire/engine/net';
import { RemoteLoader as EngineRemoteLoader } from '@quire/engine/net';
import { RESOURCE_SCHEMES } from '@quire/engine/net';
import { MAX_REMOTE_RESOURCES } from '../limits/plans.js';
import type { NetSettings } from './net-settings.js';

/** Thrown through the engine (it is not a load failure) and answered 422 `too_many_resources`. */
export { TooManyRemoteResourcesError };

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
  private readonly remote: EngineRemoteLoader;

  constructor(private readonly options: RemoteLoaderOptions) {
    this.remote = new EngineRemoteLoader({
      net: options.settings,
      maxResources: options.maxResources ?? MAX_REMOTE_RESOURCES,
      maxBytes: options.budgetBytes,
      userAgent: DEFAULT_USER_AGENT,
      headers: { 'X-Service-Fetch-Id': options.fetchId },
      ...(options.trustedCertificates && { trustedCertificates: options.trustedCertificates }),
      ...(options.onFetch && { onFetch: options.onFetch }),
    });
  }

  /** Requests sent to remote hosts so far. */
  get requests(): number {
    return this.remote.requests;
  }

  async load(url: string, context: LoadContext): Promise<LoadedResource> {
    if (!this.options.enabled && isRemote(url))
      throw new ResourceLoadError(
        'disabled',
        'linked images are not loaded for this account (its plan does not load them, or no document is left in its period)',
      );
    return this.remote.load(url, context);
  }
}

function isRemote(url: string): boolean {
  return URL.canParse(url) && RESOURCE_SCHEMES.includes(new URL(url).protocol);
}
