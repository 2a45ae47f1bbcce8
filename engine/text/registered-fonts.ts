/**
 * Fonts given to one render (the library's `fonts` option, `quire render --font`): each file is
 * bounded in size before it is read, checked for what it is (a TrueType or OpenType font or
 * collection) and for what its licence bits allow (OS/2 fsType), and its faces are grouped into
 * families by name, weight and slant, read from its own tables unless given. A face is then
 * found like a bundled one: by family, weight and slant (the nearest weight, as CSS matches).
 *
 * Faces are kept between renders by the bytes' digest (bounded, least recently used dropped
 * first), so a program that renders with the same fonts again parses and shapes nothing twice;
 * a render holds its own faces for as long as it runs.
 */
import * as fontkit from 'fontkit';
import { createHash } from '../hash.js';
import { FontError, InvalidOptionError, throwIfAborted, type FontFailure } from '../errors.js';
import type { FontSource, RendererBounds } from '../options.js';
import { RecentlyUsed } from '../recently-used.js';
import { ResourceLoadError, type ResourceLoader } from '../resources/loader.js';
import { BUNDLED_FAMILIES, familyKey, type RegisteredFamilies } from '../style/document-fonts.js';
import { Face } from './face.js';
import type { Design, Weight } from './font-catalog.js';
import { FS_TYPE, readFontFile, type FaceFacts } from './font-file.js';

/** One face of a registered family. */
export interface RegisteredFace {
  face: Face;
  /** 1–1000, as CSS weights. */
  weight: number;
  italic: boolean;
  /** What its letters look like, so that characters it lacks come from a bundled face that matches. */
  design: Design;
}

interface Family {
  name: string;
  faces: RegisteredFace[];
}

/** The weights FontStyle names, as CSS numbers. */
export const WEIGHT_NUMBERS: Record<Weight, number> = { regular: 400, semibold: 600, bold: 700 };

const MOST_FAMILY_NAME = 100;
/** Parsed faces kept between renders, by what their files weigh together. */
const MOST_KEPT_FONT_BYTES = 128 * 1024 * 1024;
const kept = new RecentlyUsed<string, { face: Face; bytes: number }>(MOST_KEPT_FONT_BYTES, (entry) => entry.bytes);

/** The families registered for one render, and their faces by key (for painting). */
export class RegisteredFonts {
  static readonly none = new RegisteredFonts(new Map());

  private readonly byKey = new Map<string, Face>();
  /** The registered names by family key, as front matter and `design.fonts` may name them. */
  readonly names: RegisteredFamilies;
  /** Every family, face, weight and slant, in one string: what a cache of laid-out blocks must match. */
  readonly signature: string;

  private constructor(private readonly families: ReadonlyMap<string, Family>) {
    for (const family of families.values()) for (const { face } of family.faces) this.byKey.set(face.key, face);
    this.names = new Map([...families].map(([key, family]) => [key, family.name]));
    this.signature = JSON.stringify([...families].map(([key, family]) => [key, family.faces.map((face) => [face.face.key, face.weight, face.italic])]));
  }

  get size(): number {
    return this.families.size;
  }

  has(family: string): boolean {
    return this.families.has(family);
  }

  /** A registered face by its key, for painting what layout shaped with it. */
  known(key: string): Face | undefined {
    return this.byKey.get(key);
  }

  /**
   * The face of `family` nearest to `weight` and `italic`: the slant first (an upright face when
   * the family has no italic one), then the weight as CSS matches it — a light or regular weight
   * looks lighter first, a bold one heavier first.
   */
  match(family: string, weight: number, italic: boolean): RegisteredFace {
    const faces = this.families.get(family)?.faces;
    if (!faces) throw new Error(`no registered font family "${family}"`);
    const slanted = faces.filter((face) => face.italic === italic);
    const candidates = slanted.length > 0 ? slanted : faces;
    return candidates.reduce((best, face) => (weightDistance(face.weight, weight) < weightDistance(best.weight, weight) ? face : best));
  }

  /** Loads, checks and groups the fonts of the `fonts` option; `loader` reads those given by path. */
  static async load(sources: unknown, loader: ResourceLoader, bounds: RendererBounds, signal: AbortSignal | undefined): Promise<RegisteredFonts> {
    if (sources === undefined || sources === null) return RegisteredFonts.none;
    if (!Array.isArray(sources)) throw new InvalidOptionError('fonts', 'fonts must be an array of { family, data or path }');
    if (sources.length === 0) return RegisteredFonts.none;
    const families = new Map<string, Family>();
    let count = 0;
    for (const [position, given] of sources.entries()) {
      throwIfAborted(signal);
      const source = checkSource(given, `fonts[${position}]`);
      const named = describe(source, position);
      const refuse: Refuse = (reason, detail) => new FontError(position, named, reason, detail);
      const bytes = source.data ?? (await loadFile(source.path!, refuse, loader, bounds.maxFontBytes, signal));
      if (bytes.length > bounds.maxFontBytes) throw refuse('too_large', `the file is larger than ${bounds.maxFontBytes} bytes (limits.bounds.maxFontBytes)`);
      for (const registered of facesOf(bytes, source, refuse, `fonts[${position}]`)) {
        if (++count > bounds.maxFonts) throw refuse('too_many', `more than ${bounds.maxFonts} faces are registered (limits.bounds.maxFonts)`);
        const name = source.family ?? registered.facts.family;
        if (name === null) throw refuse('no_family', 'its name table names no family: give one (`family`)');
        const key = familyKey(name);
        if (key === '' || name.length > MOST_FAMILY_NAME)
          throw new InvalidOptionError(`fonts[${position}].family`, `a family name is 1 to ${MOST_FAMILY_NAME} characters`);
        if (BUNDLED_FAMILIES.includes(key))
          throw new InvalidOptionError(`fonts[${position}].family`, `"${name}" names a bundled family: register the font under another name`);
        const family = families.get(key) ?? { name: name.trim().replace(/\s+/g, ' '), faces: [] };
        families.set(key, family);
        const clash = family.faces.find((face) => face.weight === registered.face.weight && face.italic === registered.face.italic);
        if (clash)
          throw refuse(
            'duplicate_face',
            `${family.name} already has ${registered.face.italic ? 'an italic' : 'an upright'} face of weight ${registered.face.weight}; give each face its own weight or style`,
          );
        family.faces.push(registered.face);
      }
    }
    return new RegisteredFonts(families);
  }
}

/** How far a face's weight is from the one asked for, in CSS's order of preference (lower is nearer). */
function weightDistance(have: number, want: number): number {
  if (have === want) return 0;
  // From 400 to 500: heavier ones up to 500, then lighter ones, then heavier ones past 500.
  if (want >= 400 && want <= 500) {
    if (have > want && have <= 500) return have - want;
    return have < want ? 1000 + (want - have) : 2000 + (have - want);
  }
  // Bold: heavier ones first, then lighter; light: lighter ones first, then heavier.
  if (want > 500) return have > want ? have - want : 1000 + (want - have);
  return have < want ? want - have : 1000 + (have - want);
}

type Refuse = (reason: FontFailure, detail: string) => FontError;

/** Names a source in messages: its family, else its path, and its place in the option. */
function describe(source: CheckedSource, position: number): string {
  const what = source.family ?? source.path;
  return what === undefined ? `fonts[${position}]` : `"${what}" (fonts[${position}])`;
}

interface CheckedSource {
  family?: string;
  data?: Uint8Array;
  path?: string;
  weight?: number;
  italic?: boolean;
  index?: number;
}

function checkSource(given: unknown, key: string): CheckedSource {
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw new InvalidOptionError(key, `${key} must be an object of family and data or path`);
  const source = given as FontSource & Record<string, unknown>;
  for (const name of Object.keys(source)) {
    if (!['family', 'data', 'path', 'weight', 'style', 'index'].includes(name)) throw new InvalidOptionError(`${key}.${name}`, `unknown font key "${name}"`);
  }
  const checked: CheckedSource = {};
  if (source.family !== undefined) {
    if (typeof source.family !== 'string' || familyKey(source.family) === '' || source.family.length > MOST_FAMILY_NAME)
      throw new InvalidOptionError(`${key}.family`, `family must be a name of 1 to ${MOST_FAMILY_NAME} characters`);
    checked.family = source.family.trim();
  }
  if ((source.data === undefined) === (source.path === undefined)) throw new InvalidOptionError(key, `${key} must have data or path, not both`);
  if (source.data !== undefined) {
    if (!(source.data instanceof Uint8Array)) throw new InvalidOptionError(`${key}.data`, 'data must be a Uint8Array (or a Buffer)');
    checked.data = source.data;
  }
  if (source.path !== undefined) {
    if (typeof source.path !== 'string' || source.path === '') throw new InvalidOptionError(`${key}.path`, 'path must be a non-empty string');
    checked.path = source.path;
  }
  if (source.weight !== undefined) {
    const weight = source.weight === 'normal' ? 400 : source.weight === 'bold' ? 700 : source.weight;
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 1 || weight > 1000)
      throw new InvalidOptionError(`${key}.weight`, 'weight must be a whole number from 1 to 1000, "normal" or "bold"');
    checked.weight = weight;
  }
  if (source.style !== undefined) {
    if (source.style !== 'normal' && source.style !== 'italic') throw new InvalidOptionError(`${key}.style`, 'style must be "normal" or "italic"');
    checked.italic = source.style === 'italic';
  }
  if (source.index !== undefined) {
    if (typeof source.index !== 'number' || !Number.isInteger(source.index) || source.index < 0)
      throw new InvalidOptionError(`${key}.index`, 'index must be a whole number from 0');
    checked.index = source.index;
  }
  return checked;
}

/** The file at `path` through the loader, refused before it is read when it is over the bound. */
async function loadFile(path: string, refuse: Refuse, loader: ResourceLoader, maxBytes: number, signal: AbortSignal | undefined): Promise<Uint8Array> {
  try {
    const { bytes } = await loader.load(path, { remainingBytes: maxBytes, ...(signal && { signal }) });
    return bytes;
  } catch (error) {
    if (!(error instanceof ResourceLoadError)) throw error;
    if (error.reason === 'too_large') throw refuse('too_large', `the file is larger than ${maxBytes} bytes (limits.bounds.maxFontBytes)`);
    throw refuse('unreadable', `could not be loaded: ${error.reason} (${error.message})`);
  }
}

/** The faces a file gives, checked; the whole collection unless `index` picks one face. */
function facesOf(bytes: Uint8Array, source: CheckedSource, refuse: Refuse, key: string): { facts: FaceFacts; face: RegisteredFace }[] {
  const file = readFontFile(bytes);
  if (file === 'woff' || file === 'woff2')
    throw refuse('unsupported_format', `is a ${file.toUpperCase()} web font; give the TrueType or OpenType file (.ttf, .otf) it was made from`);
  if (file === 'other') throw refuse('not_a_font', 'is not a TrueType or OpenType font (.ttf, .otf, .ttc)');
  if (source.index !== undefined && source.index >= file.faces.length)
    throw new InvalidOptionError(`${key}.index`, `the collection has ${file.faces.length} faces: index must be below ${file.faces.length}`);
  const chosen = source.index === undefined ? file.faces : [file.faces[source.index]!];
  let digest: string | undefined;
  const open = opener(bytes);
  return chosen.map((facts) => {
    checkEmbedding(facts, refuse);
    digest ??= createHash('sha256').update(bytes).digest('hex').slice(0, 32);
    const face = parsedFace(`font:${digest}:${facts.index}`, open, facts.index, refuse);
    return {
      facts,
      face: {
        face,
        weight: source.weight ?? facts.weight,
        italic: source.italic ?? facts.italic,
        design: facts.fixedPitch ? 'mono' : facts.serifStyle >= 2 && facts.serifStyle <= 10 ? 'serif' : 'sans',
      },
    };
  });
}

/**
 * Refuses a face whose licence bits forbid what Quire does with it (OpenType, OS/2 fsType):
 * embed it in a PDF, subset to the glyphs a document uses, as outlines.
 */
function checkEmbedding(facts: FaceFacts, refuse: Refuse): void {
  const which = facts.postscriptName ?? facts.family ?? 'its face';
  const fsType = `0x${facts.fsType.toString(16).padStart(4, '0')}`;
  const usage = facts.fsType & 0x000f;
  // Several usage bits (OS/2 before version 3) mean the least restrictive of them.
  if (usage & FS_TYPE.restricted && !(usage & (FS_TYPE.previewAndPrint | FS_TYPE.editable)))
    throw refuse(
      'embedding_restricted',
      `${which} may not be embedded: its OS/2 fsType ${fsType} asks for restricted licence embedding (0x0002), which needs the legal owner's permission`,
    );
  if (facts.fsType & FS_TYPE.bitmapOnly)
    throw refuse('bitmap_only', `${which} may not be embedded as outlines: its OS/2 fsType ${fsType} allows bitmap embedding only (0x0200)`);
  if (facts.fsType & FS_TYPE.noSubsetting)
    throw refuse(
      'no_subsetting',
      `${which} may not be subset: its OS/2 fsType ${fsType} forbids subsetting (0x0100), and a PDF embeds only the glyphs it uses`,
    );
  if (!facts.outlines) throw refuse('bitmap_only', `${which} has no outlines (glyf or CFF), only bitmaps, which a PDF cannot embed as text`);
}

/** The file's bytes (a copy: the caller may reuse its buffer, and a face outlives the render) and fontkit's reading of them, made once. */
type OpenedFile = () => { own: Buffer; font: ReturnType<typeof fontkit.create> };

function opener(bytes: Uint8Array): OpenedFile {
  let opened: ReturnType<OpenedFile> | undefined;
  return () => {
    if (!opened) {
      const own = Buffer.from(bytes);
      opened = { own, font: fontkit.create(own) };
    }
    return opened;
  };
}

/** The face at `index` of the file, parsed once for as long as it is kept. */
function parsedFace(key: string, open: OpenedFile, index: number, refuse: Refuse): Face {
  const known = kept.get(key);
  if (known) return known.face;
  let face: Face;
  try {
    const { own, font: loaded } = open();
    const font = 'fonts' in loaded ? loaded.fonts[index] : loaded;
    if (!font) throw new Error('no such face');
    face = new Face(key, font, own, index);
    // What fontkit reads lazily, read now: a font broken here is refused, not found broken while painting.
    if (!(face.unitsPerEm > 0) || font.numGlyphs < 1) throw new Error('no glyphs');
  } catch (error) {
    throw refuse('not_a_font', `could not be read as a font (${(error as Error).message})`);
  }
  kept.set(key, { face, bytes: open().own.length });
  return face;
}
