/**
 * A render call turned into what crosses to a worker: the options as plain data (a copy, taken
 * when the call is made), the loaders kept on the host and named by number, the cache named by
 * number. What cannot cross is refused here, naming the option, before any thread is involved.
 */
import { InvalidOptionError } from '../errors.js';
import type { MarkdownFile, RenderCallOptions } from '../render.js';
import type { RenderCache } from '../render-cache.js';
import type { ResourceLoader } from '../resources/loader.js';
import type { LoaderRef, PlainOptions, RenderSources, RenderTask } from './protocol.js';

export interface PreparedCall {
  task: RenderTask;
  /** The loaders the task names by number, called on the host when the worker asks. */
  loaders: ResourceLoader[];
  signal: AbortSignal | undefined;
}

/** Numbers for the RenderCaches a renderer has been handed, held weakly. */
export class CacheKeys {
  private readonly keys = new WeakMap<RenderCache, number>();
  private next = 0;

  key(cache: RenderCache): number {
    let key = this.keys.get(cache);
    if (key === undefined) this.keys.set(cache, (key = this.next++));
    return key;
  }
}

export type CallSources = { kind: 'markdown'; markdown: string } | { kind: 'files'; files: readonly MarkdownFile[] };

export function prepareCall(sources: CallSources, options: RenderCallOptions, cacheKeys: CacheKeys): PreparedCall {
  const loaders: ResourceLoader[] = [];
  const numbers = new Map<ResourceLoader, number>();
  const refer = (loader: ResourceLoader | undefined, key: string): LoaderRef => {
    if (loader === undefined || loader === null) return null;
    if (typeof loader.load !== 'function') throw new InvalidOptionError(key, `${key} must be a ResourceLoader (an object with a load method)`);
    let number = numbers.get(loader);
    if (number === undefined) {
      number = loaders.push(loader) - 1;
      numbers.set(loader, number);
    }
    return number;
  };

  const { loader, cache, limits, ...rest } = options;
  const { signal, ...plainLimits } = limits ?? {};
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new InvalidOptionError('limits.signal', 'limits.signal must be an AbortSignal');
  const plain: PlainOptions = {};
  for (const [key, value] of Object.entries({ ...rest, ...(limits && { limits: plainLimits }) })) {
    try {
      (plain as Record<string, unknown>)[key] = structuredClone(value);
    } catch (error) {
      throw new InvalidOptionError(key, `${key} must be plain data to reach the renderer's threads (${(error as Error).message})`);
    }
  }

  const taskSources: RenderSources =
    sources.kind === 'markdown'
      ? { kind: 'markdown', markdown: sources.markdown }
      : {
          kind: 'files',
          files: sources.files.map((file, index) => ({
            markdown: file.markdown,
            path: file.path,
            loader: file.loader === undefined ? undefined : refer(file.loader, `files[${index}].loader`),
          })),
        };
  const task: RenderTask = { sources: taskSources, options: plain, loader: refer(loader, 'loader'), cache: cache ? cacheKeys.key(cache) : null };
  return { task, loaders, signal };
}
