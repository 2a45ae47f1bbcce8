/** Names of renderer bounds, exactly as docs/api.md "Limits" lists them. */
export const RENDERER_BOUNDS = [
  'OutOfMemory',
  'MemoryLimit',
  'PreparedMemoryLimit',
  'SourceLimit',
  'SourceBytesLimit',
  'PreparedBytesLimit',
  'ResourceCountLimit',
  'ResourceDepthLimit',
  'DepthLimit',
  'ImageTooLarge',
  'ImageTooManyPixels',
  'ImageDimensionsTooLarge',
  'ElementLimit',
  'SvgWorkLimit',
  'DecodedWorkLimit',
  'ResourceLimit',
  'InspectionLimit',
  'Capacity',
] as const;

export type RendererBoundName = (typeof RENDERER_BOUNDS)[number];

/** Every error the engine throws on purpose; `code` is stable, `message` is for people. */
export abstract class QuireError extends Error {
  abstract readonly code: string;
  override get name(): string {
    return this.constructor.name;
  }
}

/** An option or feature switch the engine cannot accept; `key` names it (e.g. `features.tasks`). */
export class InvalidOptionError extends QuireError {
  readonly code = 'invalid_option';
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

export class EmptyDocumentError extends QuireError {
  readonly code = 'empty_document';
  constructor() {
    super('the document is empty');
  }
}

/**
 * The YAML front matter could not be read, or holds a value Quire cannot use. `line` and `column`
 * are 1-based within the file (the opening `---` is line 1); `detail` is the message without the
 * place. A YAML error names its line and column in the message; a bad value names its key there
 * (`front matter: theme must be …`), and its line only in `line`. `file`: the path of the file
 * of several joined (renderFiles) whose front matter it is.
 */
export class FrontMatterError extends QuireError {
  readonly code = 'invalid_front_matter';
  constructor(
    readonly detail: string,
    readonly line?: number,
    readonly column?: number,
    readonly key?: string,
    readonly file?: string,
  ) {
    const place = line && key === undefined ? `front matter, line ${line}${column ? `, column ${column}` : ''}` : 'front matter';
    super(`${file === undefined ? '' : `${file}: `}${place}: ${detail}`);
  }
}

/** Layout needed more pages than `limit`; it stopped at `pagesReached`. */
export class PageLimitError extends QuireError {
  readonly code = 'too_many_pages';
  constructor(
    readonly limit: number,
    readonly pagesReached: number,
  ) {
    super(`the document needs more than ${limit} pages`);
  }
}

/**
 * The render was stopped before it finished: its `limits.signal` was aborted (`cause` is the
 * signal's reason: a `TimeoutError` DOMException for `AbortSignal.timeout()`, an `AbortError` for
 * `controller.abort()`, or what was passed to `abort(reason)`), or a renderer's `timeoutMs` ran
 * out (`limitMs` says which).
 */
export class RenderTimeoutError extends QuireError {
  readonly code = 'render_timeout';
  /** The renderer's time limit that stopped the render; absent when a signal stopped it. */
  readonly limitMs: number | undefined;
  constructor(options: { cause?: unknown; limitMs?: number } = {}) {
    super(
      options.limitMs === undefined ? 'the render was stopped before it finished' : `the render was stopped at its time limit of ${options.limitMs} ms`,
      'cause' in options ? { cause: options.cause } : undefined,
    );
    this.limitMs = options.limitMs;
  }
}

/** Hostile or oversized content reached one of the named renderer bounds. */
export class RendererBoundError extends QuireError {
  readonly code = 'renderer_bound';
  constructor(
    readonly bound: RendererBoundName,
    message: string,
  ) {
    super(message);
  }
}

/** Resources together exceed the byte budget handed in `limits.resourceBytes`. */
export class ResourceBudgetError extends QuireError {
  readonly code = 'resource_budget';
  constructor(readonly limit: number) {
    super(`resources exceed the budget of ${limit} bytes`);
  }
}

/**
 * In strict mode, a resource could not be loaded or read. `resourceId` is its position, and the
 * message never names its URL; `url` does, as the document wrote it (undefined for a `data:`
 * URI), for a caller that holds the document anyway (the command line names it; the service
 * passes on only the position).
 */
export class ResourceError extends QuireError {
  readonly code = 'resource_fetch_failed';
  constructor(
    readonly resourceId: string,
    readonly reason: string,
    message: string,
    readonly url?: string,
  ) {
    super(message);
  }
}

/**
 * A renderer's worker thread stopped during a render — it exited, or failed outside the engine —
 * so that render alone fails; the renderer replaces the thread and goes on. (A thread that runs
 * out of memory fails its render with RendererBoundError `OutOfMemory` instead.)
 */
export class RenderWorkerError extends QuireError {
  readonly code = 'worker_failed';
}

/** The renderer was closed: it takes no more renders. */
export class RendererClosedError extends QuireError {
  readonly code = 'renderer_closed';
  constructor() {
    super('the renderer is closed');
  }
}

/** The renderer's queue already holds `maxQueue` renders waiting for a thread. */
export class RendererBusyError extends QuireError {
  readonly code = 'renderer_busy';
  constructor(readonly maxQueue: number) {
    super(`the renderer's queue is full (${maxQueue} renders waiting)`);
  }
}

/** Why a font given to the render (the `fonts` option) is refused. */
export type FontFailure =
  /** The bytes are no TrueType or OpenType font (or its tables cannot be read). */
  | 'not_a_font'
  /** A WOFF or WOFF2 web font: give the TrueType or OpenType file it was made from. */
  | 'unsupported_format'
  /** OS/2 fsType 0x0002: restricted licence embedding, no embedding without the owner's permission. */
  | 'embedding_restricted'
  /** OS/2 fsType 0x0100: the font may not be subset, and Quire embeds only the glyphs a document uses. */
  | 'no_subsetting'
  /** OS/2 fsType 0x0200, or no outlines at all: only bitmaps could be embedded. */
  | 'bitmap_only'
  /** Over `limits.bounds.maxFontBytes`. */
  | 'too_large'
  /** More faces than `limits.bounds.maxFonts`. */
  | 'too_many'
  /** The loader could not deliver the file (`path`). */
  | 'unreadable'
  /** No family was given and the font's name table names none. */
  | 'no_family'
  /** Two faces of one family with the same weight and slant. */
  | 'duplicate_face';

/**
 * A font given to the render cannot be used: `index` is its place in the `fonts` option, `font`
 * names it as it was given (its family or path, and that place), `reason` says why and `detail`
 * says it for people (the message is `font <font>: <detail>`).
 */
export class FontError extends QuireError {
  readonly code = 'invalid_font';
  constructor(
    readonly index: number,
    readonly font: string,
    readonly reason: FontFailure,
    readonly detail: string,
  ) {
    super(`font ${font}: ${detail}`);
  }
}

/**
 * A document links more distinct remote resources than its remote loader allows (`maxResources`
 * of `remoteLoader`; 50 in the service): the render stops rather than go on without them.
 */
export class TooManyRemoteResourcesError extends QuireError {
  readonly code = 'too_many_resources';
  constructor(readonly limit: number) {
    super(`the document links more than ${limit} remote resources`);
  }
}

/** Stop at once when the caller's signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new RenderTimeoutError({ cause: signal.reason });
}
