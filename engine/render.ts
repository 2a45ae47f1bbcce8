/**
 * The render on the caller's thread: Markdown (or several files) in, a PDF out. Each call runs
 * the whole pipeline on the thread that calls it, so the event loop waits for the whole render
 * — a timer, an abort signal's timeout, a server's other requests all wait with it. A program
 * that must stay responsive renders through `createRenderer` (renderer/), which runs these same
 * functions in worker threads.
 */
import { EmptyDocumentError } from './errors.js';
import { layOutSources, type Source } from './pipeline.js';
import type { RenderOptions } from './options.js';
import { paintDocument } from './paint/document.js';
import type { PhaseTimings } from './phase-clock.js';
import type { RenderCache } from './render-cache.js';
import { cacheParts } from './cache-parts.js';
import { noLoader, type ResourceLoader } from './resources/loader.js';
import type { ResourceOutcome } from './resources/outcome.js';
import { writePdfFile, writePdfStream } from './renderer/output.js';

export interface RenderResult {
  pdf: Uint8Array;
  pages: number;
  /** Milliseconds per phase, as the service reports them in `Server-Timing`. */
  timings: PhaseTimings;
  resources: ResourceOutcome;
  /** Things drawn with a fallback (a missing glyph, a placeholder), for people. */
  warnings: string[];
  title: string | undefined;
  language: string | undefined;
}

/**
 * The options of one render, and the cache kept between renders of a document as it is edited
 * (so each redoes only what changed). The cache is composed here, at the top: every stage below
 * takes the options alone, or the one cache it uses.
 */
export interface RenderCallOptions extends RenderOptions {
  cache?: RenderCache;
}

/**
 * Renders `markdown` to a PDF **on the caller's thread, blocking its event loop for the whole
 * render** (seconds for a long document): no timer fires meanwhile, so `limits.signal` stops the
 * render only if it was aborted before the render or while a resource loads — an
 * `AbortSignal.timeout()` cannot fire mid-render. Fine for a script; a server, or anything that
 * must stop a render on time, uses `createRenderer`, which runs this in worker threads.
 */
export async function render(markdown: string, options: RenderCallOptions = {}): Promise<RenderResult> {
  return renderSources([{ markdown, path: null, loader: options.loader ?? noLoader }], options);
}

/** One Markdown file of a document joined from several. */
export interface MarkdownFile {
  markdown: string;
  /**
   * The file's path from the files' common folder, with `/` between folders (`guide/setup.md`):
   * a relative link from one file to another (`[see](setup.md#install)`) names it so.
   */
  path: string;
  /** Where its images load from (relative paths from its own folder); default: `options.loader`. */
  loader?: ResourceLoader;
}

/**
 * Several Markdown files as one PDF, in order: each starts a new page under an outline entry of
 * its own (its title, first H1 or path), names its headings and anchors for itself, and links to
 * the others by their paths. The first file's front matter speaks for the whole document.
 */
export async function renderFiles(files: readonly MarkdownFile[], options: RenderCallOptions = {}): Promise<RenderResult> {
  if (files.length === 0) throw new EmptyDocumentError();
  return renderSources(
    files.map((file) => ({ markdown: file.markdown, path: file.path, loader: file.loader ?? options.loader ?? noLoader })),
    options,
  );
}

/** `render`, with the PDF written to `path` as well (nothing is written when the render fails). Blocks the event loop as `render` does. */
export async function renderToFile(markdown: string, path: string | URL, options: RenderCallOptions = {}): Promise<RenderResult> {
  const result = await render(markdown, options);
  await writePdfFile(result.pdf, path);
  return result;
}

/**
 * `render`, with the PDF written to `stream`, which is then ended (a failed render writes
 * nothing and leaves the stream open). Blocks the event loop as `render` does.
 */
export async function renderToStream(markdown: string, stream: NodeJS.WritableStream, options: RenderCallOptions = {}): Promise<RenderResult> {
  const result = await render(markdown, options);
  await writePdfStream(result.pdf, stream);
  return result;
}

async function renderSources(sources: readonly Source[], options: RenderCallOptions): Promise<RenderResult> {
  const parts = options.cache && cacheParts(options.cache);
  const { document, laidOut, clock } = await layOutSources(sources, options, parts);
  const pdf = await paintDocument(laidOut, {
    signal: options.limits?.signal,
    ...(parts && { streams: parts.streams, splitImages: parts.splitImages }),
  });
  clock.mark('serialize');

  return {
    pdf,
    pages: laidOut.pages.length,
    timings: clock.timings(),
    resources: document.resources,
    warnings: [...document.warnings, ...laidOut.warnings],
    title: document.meta.title,
    language: document.meta.language,
  };
}
