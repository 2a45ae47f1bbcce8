/**
 * The host's side of loading: a worker asks for a resource, the host calls the caller's own
 * loader (on the caller's thread, asynchronously) and sends back the bytes — copied into a buffer
 * of their own, which moves to the worker — or why it failed.
 */
import { ResourceLoadError, type ResourceLoader } from '../resources/loader.js';
import type { HostMessage, WorkerMessage } from './protocol.js';

export interface LoadAnswer {
  reply: HostMessage;
  transfer: ArrayBuffer[];
}

/**
 * Loads what `request` asks for with `loader`, under `signal` (aborted once the render is over,
 * for whatever reason). A failure other than a ResourceLoadError is kept with `keep`, so the
 * render can fail with that very error.
 */
export async function loadForWorker(
  request: Extract<WorkerMessage, { type: 'load' }>,
  loader: ResourceLoader | undefined,
  signal: AbortSignal,
  keep: (error: unknown) => number,
): Promise<LoadAnswer> {
  const asked = { job: request.job, request: request.request };
  try {
    if (!loader) throw new ResourceLoadError('unsupported_scheme', 'no loader was given for resources outside the document');
    const loaded = await loader.load(request.url, { signal, remainingBytes: request.remainingBytes });
    if (!(loaded?.bytes instanceof Uint8Array)) throw new TypeError(`the loader gave no bytes (a Uint8Array) for ${request.url}`);
    // A copy (a Buffer's slice() is a view): the caller's bytes may share their memory, which moving would take from them.
    const bytes = new Uint8Array(loaded.bytes);
    const mediaType = typeof loaded.mediaType === 'string' ? loaded.mediaType : undefined;
    return { reply: { type: 'loaded', ...asked, bytes, mediaType }, transfer: [bytes.buffer] };
  } catch (error) {
    if (error instanceof ResourceLoadError) {
      return { reply: { type: 'load-failed', ...asked, reason: error.reason, message: error.message, loaderError: undefined }, transfer: [] };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { reply: { type: 'load-failed', ...asked, reason: undefined, message, loaderError: keep(error) }, transfer: [] };
  }
}
