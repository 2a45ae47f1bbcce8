/**
 * `createRenderer`: renders on a pool of worker threads, so the caller's event loop stays free
 * while a document is typeset, and an abort signal or a time limit stops a render mid-way (its
 * thread is terminated and replaced). The same options and results as `render`; the caller's
 * loaders run on the caller's thread when a worker asks for a resource.
 */
import { availableParallelism } from 'node:os';
import { InvalidOptionError } from '../errors.js';
import type { MarkdownFile, RenderCallOptions, RenderResult } from '../render.js';
import { writePdfFile, writePdfStream } from './output.js';
import { WorkerPool } from './pool.js';
import { CacheKeys, prepareCall } from './task.js';

export interface RendererOptions {
  /** Worker threads rendering at once; default min(availableParallelism() − 1, 4), at least 1. Each starts when work first needs it. */
  threads?: number;
  /**
   * Old-generation heap of each thread, in MB (the Worker's `resourceLimits.maxOldGenerationSizeMb`);
   * default 1024. A render that needs more fails with RendererBoundError `OutOfMemory`, and its
   * thread is replaced.
   */
  maxMemoryMb?: number;
  /**
   * Each render's time limit in milliseconds, counted from when a thread takes it (time waiting
   * in the queue does not count); past it the render fails with RenderTimeoutError (`limitMs`).
   * Default: none. `options.limits.signal` limits one render from the moment it is asked for.
   */
  timeoutMs?: number;
  /**
   * Renders that may wait for a free thread; one more fails at once with RendererBusyError.
   * Default: no bound — a waiting render holds only its Markdown and options, which the caller
   * holds anyway, and a server decides how much it admits; set it to shed load instead.
   */
  maxQueue?: number;
}

/** Renders in worker threads; `close()` when done. Every method returns what `render` returns and rejects as it does. */
export interface Renderer {
  /** `render` in a thread. */
  render(markdown: string, options?: RenderCallOptions): Promise<RenderResult>;
  /** `renderFiles` in a thread: each file's own loader, if any, serves its images. */
  renderFiles(files: readonly MarkdownFile[], options?: RenderCallOptions): Promise<RenderResult>;
  /** `render`, with the PDF written to `path` as well (nothing is written when the render fails). */
  renderToFile(markdown: string, path: string | URL, options?: RenderCallOptions): Promise<RenderResult>;
  /** `render`, with the PDF written to `stream`, which is then ended (a failed render writes nothing and leaves it open). */
  renderToStream(markdown: string, stream: NodeJS.WritableStream, options?: RenderCallOptions): Promise<RenderResult>;
  /** Takes no more renders (they reject with RendererClosedError), lets those asked for finish, then stops the threads. */
  close(): Promise<void>;
}

const DEFAULT_MEMORY_MB = 1024;
const MAX_DEFAULT_THREADS = 4;

/**
 * A renderer on a pool of worker threads. Renders beyond its threads wait in a first-in,
 * first-out queue. `options.limits.signal` stops a render at once, wherever it is — waiting,
 * typesetting, loading a resource — and it rejects with RenderTimeoutError, whose `cause` is the
 * signal's reason (as `render` rejects when its signal stops it). `options.cache` works as with
 * `render`: each thread keeps its own copy of the last cache it was handed, and a render with a
 * cache goes to the thread holding it when that thread is free. An idle renderer does not keep
 * the process alive.
 */
export function createRenderer(options: RendererOptions = {}): Renderer {
  const pool = new WorkerPool({
    threads: whole(options.threads, 'threads', 1) ?? Math.max(1, Math.min(availableParallelism() - 1, MAX_DEFAULT_THREADS)),
    maxMemoryMb: positive(options.maxMemoryMb, 'maxMemoryMb') ?? DEFAULT_MEMORY_MB,
    timeoutMs: positive(options.timeoutMs, 'timeoutMs'),
    maxQueue: whole(options.maxQueue, 'maxQueue', 0) ?? Number.POSITIVE_INFINITY,
    // Beside this module, in dist/ as in a published package (resolved when a renderer is made, not when the engine loads).
    workerScript: new URL('./worker.js', import.meta.url),
  });
  const cacheKeys = new CacheKeys();

  const render = async (markdown: string, callOptions: RenderCallOptions = {}) => pool.run(prepareCall({ kind: 'markdown', markdown }, callOptions, cacheKeys));

  return {
    render,
    renderFiles: async (files, callOptions = {}) => pool.run(prepareCall({ kind: 'files', files }, callOptions, cacheKeys)),
    renderToFile: async (markdown, path, callOptions) => {
      const result = await render(markdown, callOptions);
      await writePdfFile(result.pdf, path);
      return result;
    },
    renderToStream: async (markdown, stream, callOptions) => {
      const result = await render(markdown, callOptions);
      await writePdfStream(result.pdf, stream);
      return result;
    },
    close: () => pool.close(),
  };
}

function whole(value: number | undefined, key: string, least: number): number | undefined {
  if (value === undefined) return undefined;
  if (value === Number.POSITIVE_INFINITY && key === 'maxQueue') return value;
  if (!Number.isSafeInteger(value) || value < least) throw new InvalidOptionError(key, `${key} must be a whole number of at least ${least}`);
  return value;
}

function positive(value: number | undefined, key: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new InvalidOptionError(key, `${key} must be a positive number`);
  return value;
}
