/**
 * The worker's side of loading: a ResourceLoader whose `load` asks the host for the resource and
 * waits for its answer, so the caller's own loader (a folder, the network, anything) runs on the
 * caller's thread, asynchronously, while the worker waits.
 */
import type { MessagePort } from 'node:worker_threads';
import { ResourceLoadError, type LoadContext, type LoadedResource, type ResourceFailureReason, type ResourceLoader } from '../resources/loader.js';
import type { HostMessage, WorkerMessage } from './protocol.js';

/** The host loader failed with an error of its own (not a ResourceLoadError): the host holds it under `loaderError`. */
export class HostLoaderError extends Error {
  constructor(
    message: string,
    readonly loaderError: number,
  ) {
    super(message);
  }
}

type Answer = Extract<HostMessage, { type: 'loaded' | 'load-failed' }>;

export class HostLoads {
  private readonly waiting = new Map<number, { resolve(loaded: LoadedResource): void; reject(error: Error): void }>();
  private nextRequest = 0;

  constructor(private readonly port: MessagePort) {}

  /** A loader for render `job` that asks the host's loader number `loader`. */
  loader(job: number, loader: number): ResourceLoader {
    return {
      load: (url: string, context: LoadContext) =>
        new Promise<LoadedResource>((resolve, reject) => {
          const request = this.nextRequest++;
          this.waiting.set(request, { resolve, reject });
          this.port.postMessage({ type: 'load', job, request, loader, url, remainingBytes: context.remainingBytes } satisfies WorkerMessage);
        }),
    };
  }

  /** The host's answer to a request. */
  answer(message: Answer): void {
    const waiting = this.waiting.get(message.request);
    if (!waiting) return;
    this.waiting.delete(message.request);
    if (message.type === 'loaded') {
      waiting.resolve(message.mediaType === undefined ? { bytes: message.bytes } : { bytes: message.bytes, mediaType: message.mediaType });
    } else if (message.loaderError !== undefined) {
      waiting.reject(new HostLoaderError(message.message, message.loaderError));
    } else {
      waiting.reject(new ResourceLoadError(message.reason as ResourceFailureReason, message.message));
    }
  }
}
