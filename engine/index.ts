/**
 * Quire's engine: Markdown in, PDF bytes out, in one direction —
 *
 *   markdown ─parse─▶ mdast ─build─▶ document ─layout─▶ pages of boxes ─paint─▶ PDF bytes
 */
import { EmptyDocumentError, InvalidOptionError, throwIfAborted } from './errors.js';
import { readFrontMatter, type FrontMatter } from './parse/front-matter.js';
import { settingMessage } from './design/settings.js';
import { resolveBounds, resolveFeatures, validateLanguage, type RenderOptions } from './options.js';
import { parseMarkdown } from './parse/markdown.js';
import { buildDocument } from './document/build.js';
import { layoutDocument } from './layout/document.js';
import { paintDocument } from './paint/document.js';
import { PhaseClock, type PhaseTimings } from './phase-clock.js';
import { noLoader, type ResourceLoader } from './resources/loader.js';
import { harfBuzzReady } from './text/harfbuzz.js';
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

export async function render(markdown: string, options: RenderOptions = {}): Promise<RenderResult> {
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
export async function renderFiles(files: readonly MarkdownFile[], options: RenderOptions = {}): Promise<RenderResult> {
  if (files.length === 0) throw new EmptyDocumentError();
  return renderSources(files.map((file) => ({ markdown: file.markdown, path: file.path, loader: file.loader ?? options.loader ?? noLoader })), options);
}

interface Source {
  markdown: string;
  path: string | null;
  loader: ResourceLoader;
}

async function renderSources(sources: readonly Source[], options: RenderOptions): Promise<RenderResult> {
  const clock = new PhaseClock();
  const features = resolveFeatures(options.features);
  const language = options.language === undefined ? undefined : validateLanguage(options.language);
  const bounds = resolveBounds(options.limits?.bounds);
  const design = designOption(options.design);
  const signal = options.limits?.signal;
  if (sources.every((source) => source.markdown.length === 0)) throw new EmptyDocumentError();

  // Parsing needs no HarfBuzz, so in a fresh process it runs while HarfBuzz's WebAssembly compiles.
  const parts = sources.map((source) => ({ source: parseMarkdown(source.markdown, features, bounds), loader: source.loader, path: source.path }));
  await harfBuzzReady;
  clock.mark('setup');

  throwIfAborted(signal);
  const document = await buildDocument(parts, {
    features,
    language,
    bounds,
    signal,
    resourceMode: options.resources ?? 'strict',
    resourceBytes: options.limits?.resourceBytes ?? Number.POSITIVE_INFINITY,
    metadata: options.metadata ?? {},
    design,
  });
  throwIfAborted(signal);
  const laidOut = layoutDocument(document, { maxPages: options.limits?.maxPages, signal });
  clock.mark('render');

  const pdf = await paintDocument(laidOut, { signal });
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

/** The `design` option: the same keys as front matter, refused with the option's name. */
function designOption(input: unknown): FrontMatter {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new InvalidOptionError('design', 'design must be an object of front matter keys');
  return readFrontMatter(input as Record<string, unknown>, (key, value, expected) => {
    throw new InvalidOptionError(`design.${key}`, settingMessage(key, value, expected));
  });
}

export * from './errors.js';
export * from './options.js';
export type { DesignSettings, Margins, Orientation } from './design/settings.js';
export type { RunningLine } from './design/running-lines.js';
export type { PhaseTimings } from './phase-clock.js';
export type { ResourceOutcome } from './resources/outcome.js';
export { ResourceLoadError, noLoader, type LoadContext, type LoadedResource, type ResourceLoader, type ResourceFailureReason } from './resources/loader.js';
export { folderLoader, localPath } from './resources/folder-loader.js';
export { decodeDataUri, isDataUri, base64DecodedLength } from './resources/data-uri.js';
