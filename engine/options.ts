import { InvalidOptionError } from './errors.js';
import type { ResourceLoader } from './resources/loader.js';
import { THEMES, type Theme } from './style/theme.js';

export { THEMES, type Theme };

/** The converter switches of docs/api.md "Features", with the API's names. */
export interface Features {
  mermaid: boolean;
  mermaid_appendix: boolean;
  highlight: boolean;
  images: boolean;
  smart_typography: boolean;
  tasks: boolean;
  emoji: boolean;
  math: boolean;
  barcode: boolean;
  svg: boolean;
  html_blocks: boolean;
  bare_autolinks: boolean;
  indented_code: boolean;
  embed_source: boolean;
  tagged: boolean;
  /** The API gives no default; Quire hyphenates when a document language is known. */
  hyphenation: boolean;
  theme: Theme;
}

export type BooleanFeature = Exclude<keyof Features, 'theme'>;

export const DEFAULT_FEATURES: Readonly<Features> = Object.freeze({
  mermaid: true,
  mermaid_appendix: false,
  highlight: true,
  images: true,
  smart_typography: true,
  tasks: true,
  emoji: true,
  math: true,
  barcode: true,
  svg: true,
  html_blocks: true,
  bare_autolinks: true,
  indented_code: true,
  embed_source: false,
  tagged: true,
  hyphenation: true,
  theme: 'light',
});

export const FEATURE_NAMES = Object.keys(DEFAULT_FEATURES) as (keyof Features)[];

export type ResourceMode = 'strict' | 'lenient';

/** Named bounds that keep hostile input from exhausting the renderer (docs/api.md "Limits"). */
export interface RendererBounds {
  /** Deepest nesting of block quotes, lists and inline emphasis accepted before parsing. */
  maxDepth: number;
  /** Most blocks and inline elements in one document. */
  maxElements: number;
  /** Largest accepted image, in pixels (width × height). */
  maxImagePixels: number;
  /** Largest accepted image side, in pixels. */
  maxImageSide: number;
  /** Most pixels of all PNG, GIF and WebP images of one document together (decoded outside the heap). */
  maxDecodedPixels: number;
  /** Largest font file the `fonts` option may give, in bytes: checked before the font is read or parsed. */
  maxFontBytes: number;
  /** Most faces the `fonts` option may register for one render (each face of a collection counts). */
  maxFonts: number;
}

export const DEFAULT_BOUNDS: Readonly<RendererBounds> = Object.freeze({
  maxDepth: 64,
  maxElements: 500_000,
  maxImagePixels: 50_000_000,
  maxImageSide: 20_000,
  maxDecodedPixels: 64_000_000,
  maxFontBytes: 32 * 1024 * 1024,
  maxFonts: 32,
});

export interface RenderLimits {
  /** Layout stops with PageLimitError once the document needs more pages than this. */
  maxPages?: number;
  /**
   * Aborting the signal stops the render with RenderTimeoutError (its `cause`: the signal's
   * reason). A renderer (`createRenderer`) stops it at once, wherever it is. `render` on the
   * caller's thread holds the event loop, so nothing can abort the signal while it computes —
   * not even `AbortSignal.timeout()`'s timer: it stops only if the signal was aborted before the
   * render or while the render waited for a resource.
   */
  signal?: AbortSignal;
  /** Total bytes every loaded resource may use together. */
  resourceBytes?: number;
  bounds?: Partial<RendererBounds>;
}

export interface DocumentMetadata {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  /** Stamped as the creation date. Quire reads no clock, so the default is a fixed date. */
  date?: Date;
}

/**
 * A font for the render: its family is then chosen like a bundled one, in `design.fonts` and a
 * front matter's `fonts` (`fonts: Inter`, `fonts: {body: Inter, heading: Inter, mono: Fira Code}`).
 * Give each face of a family (regular, bold, italic, bold italic) as one source; a collection
 * (TTC) gives all its faces unless `index` picks one.
 */
export interface FontSource {
  /** The name documents choose it by; default: the font's own (typographic family, else family, of its name table). */
  family?: string;
  /** The TrueType or OpenType file (`.ttf`, `.otf`, `.ttc`). */
  data?: Uint8Array;
  /** Or its path or URL, read through the render's `loader` (as an image would be). */
  path?: string;
  /** 1–1000 (400 regular, 600 semibold, 700 bold) or `normal`/`bold`; default: the font's own (OS/2 usWeightClass). */
  weight?: number | 'normal' | 'bold';
  /** Default: the font's own (OS/2 fsSelection, else the header's macStyle). */
  style?: 'normal' | 'italic';
  /** The face of a collection to register; default: every face. */
  index?: number;
}

export interface RenderOptions {
  /**
   * Any subset of the API's switches. A misspelt name does not type-check; from JavaScript or
   * JSON, unknown names and wrong types throw InvalidOptionError.
   */
  features?: Partial<Features>;
  /** BCP 47 tag; overrides the front matter's `language`. */
  language?: string;
  resources?: ResourceMode;
  /** The only way the engine gets bytes (data: URIs are always available). */
  loader?: ResourceLoader;
  limits?: RenderLimits;
  metadata?: DocumentMetadata;
  /**
   * Document settings with the front matter's keys and values (`paper`, `margin`, `footer`,
   * `number_headings`, `toc`, …: docs/markdown.md lists them). The front matter overrides them;
   * unknown keys are ignored; a bad value throws InvalidOptionError naming `design.<key>`.
   */
  design?: Readonly<Record<string, unknown>>;
  /**
   * Fonts the document may choose by family besides the bundled ones. A font that cannot be
   * used throws FontError (not a font, embedding not permitted by its OS/2 fsType, too large);
   * a malformed entry throws InvalidOptionError naming `fonts[i].<key>`.
   */
  fonts?: readonly FontSource[];
}

export const MAX_LANGUAGE_LENGTH = 63;
/** The shape of a BCP 47 tag Quire accepts: letters, then hyphen-separated letters and digits. */
export const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/** Features with defaults filled in, refusing unknown names, wrong types and themes outside the set. */
export function resolveFeatures(input: unknown): Features {
  if (input === undefined || input === null) return { ...DEFAULT_FEATURES };
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new InvalidOptionError('features', 'features must be an object');
  }
  const features: Features = { ...DEFAULT_FEATURES };
  for (const [name, value] of Object.entries(input)) {
    if (!Object.hasOwn(DEFAULT_FEATURES, name)) {
      throw new InvalidOptionError(`features.${name}`, `unknown feature "${name}"`);
    }
    if (name === 'theme') {
      if (!THEMES.includes(value as Theme)) {
        throw new InvalidOptionError('features.theme', 'theme must be "light" or "dark"');
      }
      features.theme = value as Theme;
    } else if (typeof value !== 'boolean') {
      throw new InvalidOptionError(`features.${name}`, `feature "${name}" must be true or false`);
    } else {
      features[name as BooleanFeature] = value;
    }
  }
  return features;
}

/** A BCP 47 tag of letters, digits and hyphens, at most 63 characters. */
export function validateLanguage(tag: unknown, key = 'language'): string {
  if (typeof tag !== 'string' || tag.length === 0) {
    throw new InvalidOptionError(key, 'language must be a non-empty string');
  }
  if (tag.length > MAX_LANGUAGE_LENGTH) {
    throw new InvalidOptionError(key, `language must be at most ${MAX_LANGUAGE_LENGTH} characters`);
  }
  if (!LANGUAGE_TAG.test(tag)) {
    throw new InvalidOptionError(key, 'language must be a BCP 47 tag such as "en" or "de-CH"');
  }
  return tag;
}

export function resolveBounds(bounds: Partial<RendererBounds> | undefined): RendererBounds {
  return { ...DEFAULT_BOUNDS, ...bounds };
}
