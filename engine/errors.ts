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

export class RenderTimeoutError extends QuireError {
  readonly code = 'render_timeout';
  constructor() {
    super('the render was stopped before it finished');
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

/** Stop at once when the caller's signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new RenderTimeoutError();
}
