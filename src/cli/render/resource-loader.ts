/**
 * Where `quire render` gets images: local paths from the Markdown file's folder (never outside
 * the root), http and https through the service's own remote loader and address policy, or, with
 * --offline, nothing remote at all. The network code is loaded with the first remote image: most
 * documents have none, and a cold render would otherwise spend ~15 ms loading http, https, tls
 * and dns.
 */
import { folderLoader, localPath, ResourceLoadError, type LoadedResource, type ResourceLoader } from '../../../engine/index.js';
import type { RemoteLoader } from '../../net/remote-loader.js';
import { RESOURCE_SCHEMES } from '../../../engine/resources/remote/resource-schemes.js';
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
  /** Remote images loaded by earlier renders of the same file (--watch). */
  memory?: RemoteImageMemory;
}

/**
 * Remote images kept between the renders of one `--watch` session, so that a save does not
 * fetch them again: a README's badges took longer than re-rendering it. An image is kept while
 * the latest render shows it; one that failed is asked for again at the next save.
 */
export class RemoteImageMemory {
  private readonly kept = new Map<string, LoadedResource>();
  private readonly shown = new Set<string>();

  recall(url: string): LoadedResource | undefined {
    this.shown.add(url);
    return this.kept.get(url);
  }

  keep(url: string, image: LoadedResource): void {
    this.kept.set(url, image);
  }

  /** After a render: forgets the images it did not show. */
  forgetUnshown(): void {
    for (const url of this.kept.keys()) if (!this.shown.has(url)) this.kept.delete(url);
    this.shown.clear();
  }
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
      const { memory } = settings;
      const remembered = memory?.recall(url);
      if (remembered) return Promise.resolve(remembered);
      remote ??= remoteLoader(settings);
      return remote.then(async (loader) => {
        const image = await loader.load(url, context);
        memory?.keep(url, image);
        return image;
      });
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
