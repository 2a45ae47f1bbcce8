/**
 * Where `quire render` gets images: local paths from the Markdown file's folder (never outside
 * the root), http and https through the service's own remote loader and address policy, or, with
 * --offline, nothing remote at all. The network code is loaded with the first remote image: most
 * documents have none, and a cold render would otherwise spend ~15 ms loading http, https, tls
 * and dns.
 *
 * Remote images are bounded as a local tool bounds them: by the user's --max-remote and
 * --max-remote-mb (no count by default), not by the service's plans. The engine asks for images
 * one at a time, in document order; a README of hundreds of avatars would spend most of its time
 * waiting on each in turn, so once the document asks for its first remote image, the others it
 * links are fetched several at a time ahead of it.
 */
import { folderLoader, localPath, ResourceBudgetError, ResourceLoadError, type LoadContext, type LoadedResource, type ResourceLoader } from '@quire/engine';
import type { RemoteLoader } from '../../net/remote-loader.js';
import { RESOURCE_SCHEMES } from '@quire/engine/net';
import { CliError } from '../cli-error.js';

/** Remote images fetched at once ahead of the document (the engine's own request makes one more). */
const PREFETCH_CONCURRENCY = 6;

export interface CliLoaderSettings {
  /** The Markdown file's folder: relative paths start here. */
  baseDir: string;
  root: string;
  offline: boolean;
  /** The document's remote images, shared by the files of a joined document. */
  remote: RemoteImages;
  /** The remote images this file links, fetched ahead once it asks for its first. */
  expected?: () => Promise<Iterable<string>>;
  /** Told the file behind each local image the document asks for (whether it loads or not). */
  onLocalFile?: (file: string) => void;
}

/** Told how remote images load: how many the document links, and each fetch as it starts and ends. */
export interface FetchProgress {
  planned(count: number): void;
  fetch(event: 'start' | 'end'): void;
}

export interface RemoteLimits {
  /** Distinct remote images one document may load. */
  maxRemote: number;
  /** Bytes all of one document's remote images may load together. */
  maxRemoteBytes: number;
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

  /** Whether `url` is kept, without counting it as shown. */
  has(url: string): boolean {
    return this.kept.has(url);
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

/**
 * One document's remote images: each distinct URL the engine asks for counted against
 * --max-remote and its bytes against --max-remote-mb; those fetched ahead count only once the
 * engine asks for them (one it never asks for, found in text the scan took for an image, costs
 * nothing but its fetch).
 */
export class RemoteImages {
  private loader: Promise<RemoteLoader> | undefined;
  private readonly asked = new Map<string, Promise<LoadedResource>>();
  private bytes = 0;
  private aheadBytes = 0;

  constructor(
    private readonly limits: RemoteLimits,
    private readonly options: { progress?: FetchProgress | undefined; memory?: RemoteImageMemory | undefined } = {},
  ) {}

  load(url: string, context: LoadContext): Promise<LoadedResource> {
    const key = remoteKey(url);
    const known = this.asked.get(key);
    if (known) return known;
    if (this.asked.size >= this.limits.maxRemote) {
      throw new CliError(
        `the document links more than ${this.limits.maxRemote} remote images, the most --max-remote allows: raise it, or leave it out for no limit`,
        1,
      );
    }
    const loading = this.counted(url, context);
    this.asked.set(key, loading);
    return loading;
  }

  /**
   * Starts fetching `urls` several at a time, ahead of the engine (up to --max-remote of them,
   * and while what they loaded stays within --max-remote-mb). Failures wait for the engine's own
   * request, which gets the same answer.
   */
  fetchAhead(urls: Iterable<string>): void {
    const queue: string[] = [];
    const seen = new Set(this.asked.keys());
    for (const url of urls) {
      const key = remoteKey(url);
      if (seen.has(key) || this.options.memory?.has(url)) continue;
      seen.add(key);
      if (seen.size > this.limits.maxRemote) break;
      queue.push(url);
    }
    if (queue.length === 0) return;
    this.options.progress?.planned(seen.size);
    const next = async (): Promise<void> => {
      for (let url = queue.shift(); url !== undefined && this.aheadBytes < this.limits.maxRemoteBytes; url = queue.shift()) {
        try {
          const image = await (await this.remote()).load(url, { signal: undefined, remainingBytes: this.limits.maxRemoteBytes - this.aheadBytes });
          this.aheadBytes += image.bytes.length;
        } catch {
          // Answered again, the same way, when the engine asks for it.
        }
      }
    };
    for (let i = 0; i < Math.min(PREFETCH_CONCURRENCY, queue.length); i++) void next();
  }

  private async counted(url: string, context: LoadContext): Promise<LoadedResource> {
    const { memory } = this.options;
    let image = memory?.recall(url);
    if (!image) {
      const remaining = Math.max(0, this.limits.maxRemoteBytes - this.bytes);
      image = await (await this.remote()).load(url, { ...context, remainingBytes: Math.min(context.remainingBytes, remaining) });
      memory?.keep(url, image);
    }
    this.bytes += image.bytes.length;
    if (this.bytes > this.limits.maxRemoteBytes) throw new ResourceBudgetError(this.limits.maxRemoteBytes);
    return image;
  }

  private remote(): Promise<RemoteLoader> {
    this.loader ??= remoteLoader(this.limits, this.options.progress);
    return this.loader;
  }
}

export function cliLoader(settings: CliLoaderSettings): ResourceLoader {
  const local = folderLoader(settings.baseDir, settings.root);
  let expected = settings.expected;
  return {
    load(url, context) {
      if (!isRemote(url)) {
        if (settings.onLocalFile) followLocal(settings.baseDir, url, settings.onLocalFile);
        return local.load(url, context);
      }
      if (settings.offline) throw new ResourceLoadError('disabled', 'remote images are not loaded with --offline');
      // This file's first remote image: the rest it links start loading now.
      if (expected) {
        expected().then(
          (urls) => settings.remote.fetchAhead(urls),
          () => {}, // none fetched ahead: each loads when the engine asks for it
        );
        expected = undefined;
      }
      return settings.remote.load(url, context);
    },
  };
}

async function remoteLoader(limits: RemoteLimits, progress: FetchProgress | undefined): Promise<RemoteLoader> {
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
    budgetBytes: limits.maxRemoteBytes,
    // Counted by RemoteImages, which counts only what the document asks for.
    maxResources: Number.POSITIVE_INFINITY,
    trustedCertificates,
    ...(progress && { onFetch: (event: 'start' | 'end') => progress.fetch(event) }),
  });
}

/** A remote URL as the remote loader tells URLs apart: parsed, without its fragment. */
function remoteKey(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
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
