/**
 * Quire's engine: Markdown in, PDF bytes out, in one direction —
 *
 *   markdown ─parse─▶ mdast ─build─▶ document ─layout─▶ pages of boxes ─paint─▶ PDF bytes
 */
import { EmptyDocumentError } from './errors.js';
import { layOutSources, type Source } from './pipeline.js';
import type { RenderOptions } from './options.js';
import { paintDocument } from './paint/document.js';
import type { PhaseTimings } from './phase-clock.js';
import type { RenderCache } from './render-cache.js';
import { noLoader, type ResourceLoader } from './resources/loader.js';
import type { ResourceOutcome } from './resources/outcome.js';

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

/** Renders on the caller's thread: the event loop waits for the whole render. */
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

async function renderSources(sources: readonly Source[], options: RenderCallOptions): Promise<RenderResult> {
  const { document, laidOut, clock } = await layOutSources(sources, options, options.cache);
  const pdf = await paintDocument(laidOut, {
    signal: options.limits?.signal,
    ...(options.cache && { streams: options.cache.streams, splitImages: options.cache.splitImages }),
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

export * from './errors.js';
export * from './options.js';
export { RenderCache } from './render-cache.js';
export type { DesignSettings, Margins, Orientation } from './style/design-settings.js';
export type { RunningLine } from './style/running-lines.js';
export type { PhaseTimings } from './phase-clock.js';
export type { ResourceOutcome } from './resources/outcome.js';
export { ResourceLoadError, noLoader, type LoadContext, type LoadedResource, type ResourceLoader, type ResourceFailureReason } from './resources/loader.js';
export { folderLoader, localPath } from './resources/folder-loader.js';
export { combineLoaders } from './resources/combine-loaders.js';
export {
  remoteLoader,
  DEFAULT_MAX_REMOTE_BYTES,
  DEFAULT_MAX_REMOTE_RESOURCES,
  type RemoteLoaderOptions,
  type RemoteResourceLoader,
} from './resources/remote/remote-loader-options.js';
export { renderPreview, type PreviewOptions, type PreviewPage, type PreviewResult } from './preview/preview.js';
export { decodeDataUri, isDataUri, base64DecodedLength } from './resources/data-uri.js';
