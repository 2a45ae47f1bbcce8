/**
 * Quire's engine: Markdown in, PDF bytes out, in one direction —
 *
 *   markdown ─parse─▶ mdast ─build─▶ document ─layout─▶ pages of boxes ─paint─▶ PDF bytes
 */
import { EmptyDocumentError, throwIfAborted } from './errors.js';
import { resolveBounds, resolveFeatures, validateLanguage, type RenderOptions } from './options.js';
import { parseMarkdown } from './parse/markdown.js';
import { buildDocument } from './document/build.js';
import { layoutDocument } from './layout/document.js';
import { paintDocument } from './paint/document.js';
import { PhaseClock, type PhaseTimings } from './phase-clock.js';
import { noLoader } from './resources/loader.js';
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
  const clock = new PhaseClock();
  const features = resolveFeatures(options.features);
  const language = options.language === undefined ? undefined : validateLanguage(options.language);
  const bounds = resolveBounds(options.limits?.bounds);
  const signal = options.limits?.signal;
  if (markdown.length === 0) throw new EmptyDocumentError();

  // Parsing needs no HarfBuzz, so in a fresh process it runs while HarfBuzz's WebAssembly compiles.
  const source = parseMarkdown(markdown, features, bounds);
  await harfBuzzReady;
  clock.mark('setup');

  throwIfAborted(signal);
  const document = await buildDocument(source, {
    features,
    language,
    bounds,
    signal,
    loader: options.loader ?? noLoader,
    resourceMode: options.resources ?? 'strict',
    resourceBytes: options.limits?.resourceBytes ?? Number.POSITIVE_INFINITY,
    metadata: options.metadata ?? {},
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

export * from './errors.js';
export * from './options.js';
export type { PhaseTimings } from './phase-clock.js';
export type { ResourceOutcome } from './resources/outcome.js';
export { ResourceLoadError, noLoader, type LoadContext, type LoadedResource, type ResourceLoader, type ResourceFailureReason } from './resources/loader.js';
export { folderLoader } from './resources/folder-loader.js';
export { decodeDataUri, isDataUri, base64DecodedLength } from './resources/data-uri.js';
