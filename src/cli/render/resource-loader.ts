/**
 * Where `quire render` gets images: local paths from the Markdown file's folder (never outside
 * the root), http and https through the service's own remote loader and address policy, or, with
 * --offline, nothing remote at all. The network code is loaded with the first remote image: most
 * documents have none, and a cold render would otherwise spend ~15 ms loading http, https, tls
 * and dns.
 */
import { folderLoader, localPath, ResourceLoadError, type ResourceLoader } from '../../../engine/index.js';
import type { RemoteLoader } from '../../net/remote-loader.js';
import { RESOURCE_SCHEMES } from '../../net/resource-schemes.js';
import { CLI_RESOURCE_BYTES } from './arguments.js';

export interface CliLoaderSettings {
  /** The Markdown file's folder: relative paths start here. */
  baseDir: string;
  root: string;
  offline: boolean;
  /** Told when a remote fetch starts and ends. */
  onFetch?: (event: 'start' | 'end') => void;
  /** Told the file behind each local image the document asks for (whether it loads or not). */
  onLocalFile?: (file: string) => void;
}

export function cliLoader(settings: CliLoaderSettings): ResourceLoader {
  const local = folderLoader(settings.baseDir, settings.root);
  let remote: Promise<RemoteLoader> | undefined;
  return {
    load(url, context) {
      if (!isRemote(url)) {
        if (settings.onLocalFile) followLocal(settings.baseDir, url, settings.onLocalFile);
        return local.load(url, context);
      }
      if (settings.offline) throw new ResourceLoadError('disabled', 'remote images are not loaded with --offline');
      remote ??= remoteLoader(settings);
      return remote.then((loader) => loader.load(url, context));
    },
  };
}

async function remoteLoader(settings: CliLoaderSettings): Promise<RemoteLoader> {
  const [{ RemoteLoader }, { netSettingsFromEnv }, { trustedCertificates }, { randomUUID }] = await Promise.all([
    import('../../net/remote-loader.js'),
    import('../../net/net-settings.js'),
    import('./trusted-certificates.js'),
    import('node:crypto'),
  ]);
  return new RemoteLoader({
    settings: netSettingsFromEnv(process.env),
    fetchId: randomUUID(),
    enabled: true,
    budgetBytes: CLI_RESOURCE_BYTES,
    trustedCertificates,
    ...(settings.onFetch && { onFetch: settings.onFetch }),
  });
}

/** Tells `told` the file a local image names, as the folder loader reads it (none: nothing to tell). */
function followLocal(baseDir: string, url: string, told: (file: string) => void): void {
  try {
    told(localPath(baseDir, url));
  } catch (error) {
    if (!(error instanceof ResourceLoadError)) throw error;
  }
}

function isRemote(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  return scheme !== undefined && RESOURCE_SCHEMES.includes(`${scheme.toLowerCase()}:`);
}
