/** Bytes of one resource and, when known, their media type. */
export interface LoadedResource {
  bytes: Uint8Array;
  mediaType?: string;
}

export interface LoadContext {
  signal?: AbortSignal;
  /** Bytes this load may still use before the document's resource budget is spent. */
  remainingBytes: number;
}

/**
 * The only way the engine gets bytes it was not handed directly. A loader throws
 * ResourceLoadError with a short machine-readable reason when it cannot deliver.
 */
export interface ResourceLoader {
  load(url: string, context: LoadContext): Promise<LoadedResource>;
}

export type ResourceFailureReason =
  | 'not_found'
  | 'unsupported_scheme'
  | 'forbidden'
  | 'unreadable'
  | 'too_large'
  | 'timeout'
  | 'network_error'
  | 'http_error'
  | 'disabled';

export class ResourceLoadError extends Error {
  constructor(
    readonly reason: ResourceFailureReason,
    message: string,
  ) {
    super(message);
  }
}

/** A loader that refuses everything: the default when the caller hands none. */
export const noLoader: ResourceLoader = {
  async load() {
    throw new ResourceLoadError('unsupported_scheme', 'no loader was given for resources outside the document');
  },
};
