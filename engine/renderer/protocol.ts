/**
 * The messages between a renderer (the host, on the caller's thread) and its worker threads:
 * plain data, cloned across. One render at a time per worker; a render's resources are loaded by
 * the host, which the worker asks for each one.
 */
import type { RenderOptions, RenderLimits } from '../options.js';
import type { RenderResult } from '../render.js';

/** What of the render options crosses to a worker: everything but the loader and the signal, which stay with the host. */
export type PlainOptions = Omit<RenderOptions, 'loader' | 'limits'> & { limits?: Omit<RenderLimits, 'signal'> };

/** A loader of the host, by its number in the render's list; null: none (every resource but a data: URI is refused). */
export type LoaderRef = number | null;

export type RenderSources =
  | { kind: 'markdown'; markdown: string }
  | { kind: 'files'; files: Array<{ markdown: string; path: string; loader: LoaderRef | undefined }> };

/** One render, as the host hands it to a worker. */
export interface RenderTask {
  sources: RenderSources;
  options: PlainOptions;
  /** `options.loader`. */
  loader: LoaderRef;
  /** The host's RenderCache, by number: the worker keeps one of its own for it (null: no cache). */
  cache: number | null;
}

/** An error as it crosses: rebuilt on the other side as its class (see transfer-errors.ts). */
export interface ErrorData {
  name: string;
  message: string;
  stack: string | undefined;
  /** Its own fields (`code`, `key`, `bound`, `reason`, …) that clone. */
  fields: Record<string, unknown>;
  /** The error was the host loader's own, kept by the host under this number: the render fails with that very error. */
  loaderError?: number;
}

export type HostMessage =
  | ({ type: 'render'; job: number } & RenderTask)
  | { type: 'loaded'; job: number; request: number; bytes: Uint8Array; mediaType: string | undefined }
  /** `loaderError`: not a ResourceLoadError; the host keeps it under that number. */
  | { type: 'load-failed'; job: number; request: number; reason: string | undefined; message: string; loaderError: number | undefined };

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'load'; job: number; request: number; loader: number; url: string; remainingBytes: number }
  /** `worn`: the worker's heap stayed large after the render, so the host replaces it. */
  | { type: 'done'; job: number; result: RenderResult; worn: boolean }
  | { type: 'failed'; job: number; error: ErrorData; worn: boolean };
