/**
 * The pipeline up to laid-out pages — parse, build, lay out — shared by the PDF (which paints
 * them) and the editor's preview (which draws them as pictures).
 */
import { EmptyDocumentError, FrontMatterError, InvalidOptionError, throwIfAborted } from './errors.js';
import { loadYamlFor, readFrontMatter, type FrontMatter } from './parse/front-matter.js';
import { unknownKeyWarnings } from './parse/front-matter-keys.js';
import { settingMessage } from './style/design-settings.js';
import { resolveBounds, resolveFeatures, validateLanguage, type RenderOptions } from './options.js';
import { parseMarkdown } from './parse/markdown.js';
import { buildDocument } from './document/build.js';
import type { QuireDocument } from './document/types.js';
import type { BlockCache } from './layout/blocks/block-cache.js';
import type { CodeBlockCache } from './document/code-block-cache.js';
import { layoutDocument } from './layout/document.js';
import type { LaidOutDocument } from './layout/frame.js';
import { PhaseClock } from './phase-clock.js';
import { noLoader, type ResourceLoader } from './resources/loader.js';
import { harfBuzzReady } from './text/harfbuzz.js';
import { RegisteredFonts } from './text/registered-fonts.js';
import type { RegisteredFamilies } from './style/document-fonts.js';

export interface Source {
  markdown: string;
  path: string | null;
  loader: ResourceLoader;
}

export interface LaidOut {
  document: QuireDocument;
  laidOut: LaidOutDocument;
  /** Marked up to `render`; the caller marks what it does next. */
  clock: PhaseClock;
}

/** What an earlier render (a preview's, a document's being edited) made, reused where it is the same. */
export interface LayoutCaches {
  /** Top-level blocks laid out. */
  blocks?: BlockCache;
  /** Fenced blocks drawn or highlighted. */
  codeBlocks?: CodeBlockCache;
}

export async function layOutSources(sources: readonly Source[], options: RenderOptions, caches: LayoutCaches = {}): Promise<LaidOut> {
  const clock = new PhaseClock();
  const features = resolveFeatures(options.features);
  const language = options.language === undefined ? undefined : validateLanguage(options.language);
  const bounds = resolveBounds(options.limits?.bounds);
  const designWarnings = isRecord(options.design) ? unknownKeyWarnings(options.design, 'design option') : [];
  const signal = options.limits?.signal;
  if (sources.every((source) => source.markdown.length === 0)) throw new EmptyDocumentError();
  // Fonts first: the design option and the front matter may name their families.
  const fonts = await RegisteredFonts.load(options.fonts, options.loader ?? sources[0]?.loader ?? noLoader, bounds, signal);
  const design = designOption(options.design, fonts.names);

  await loadYamlFor(sources.map((source) => source.markdown));
  const parts = sources.map((source) => ({
    source: parsedNaming(source, () => parseMarkdown(source.markdown, features, bounds, fonts.names)),
    loader: source.loader,
    path: source.path,
  }));
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
    ...(caches.codeBlocks && { codeBlocks: caches.codeBlocks }),
  });
  throwIfAborted(signal);
  document.warnings.unshift(...designWarnings);
  const laidOut = layoutDocument(document, { maxPages: options.limits?.maxPages, signal, fonts, ...(caches.blocks && { blockCache: caches.blocks }) });
  clock.mark('render');

  return { document, laidOut, clock };
}

/** A joined file's front matter error names the file: the lines it gives are that file's. */
function parsedNaming<T>(source: Source, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof FrontMatterError) || source.path === null) throw error;
    throw new FrontMatterError(error.detail, error.line, error.column, error.key, source.path);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The `design` option: the same keys as front matter, refused with the option's name. */
function designOption(input: unknown, registered: RegisteredFamilies): FrontMatter {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new InvalidOptionError('design', 'design must be an object of front matter keys');
  return readFrontMatter(
    input as Record<string, unknown>,
    (key, value, expected) => {
      throw new InvalidOptionError(`design.${key}`, settingMessage(key, value, expected));
    },
    registered,
  );
}
