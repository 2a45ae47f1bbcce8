import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { BUNDLED_FACES, type BundledFace, type Design, type FontStyle } from './font-catalog.js';
import { DEFAULT_FONTS, type DocumentFonts } from '../style/document-fonts.js';
import { Face } from './face.js';
import { covers, readCoverage } from './cmap-coverage.js';
import { isJoinerOrSelector } from './letter-runs.js';
import { SystemFonts } from './system-fonts.js';
import { RegisteredFonts, WEIGHT_NUMBERS } from './registered-fonts.js';

/**
 * All faces Quire can draw with, and the fallback chain that picks a face for each character
 * by coverage: the style's own face, the bundled fallbacks, then system fonts. Faces load on
 * first use and live for the process, so a warm engine pays nothing for them. A family
 * registered for a render (`RegisteredFonts`) is seen through a view of the library made for
 * that render; characters its faces lack come from the bundled family of the same look first.
 */
export class FontLibrary {
  private readonly faces = new Map<string, Face>();
  private readonly system = new SystemFonts();
  /** Fallback faces chosen per character and style, and per run of letters and style. */
  private readonly choice = new Map<number, Face | null>();
  private readonly runChoice = new Map<string, Face | null>();
  /** What the `serif` (text), `heading` and `mono` families stand for; a document's own view changes them. */
  private families: Readonly<DocumentFonts> = DEFAULT_FONTS;
  /** The families registered for the render this view was made for. */
  private registered: RegisteredFonts = RegisteredFonts.none;
  /** Registered faces chosen per role, weight and slant (the view's own), by roleStyleIndex. */
  private registeredChoice: (RegisteredChoice | null | undefined)[] = [];

  /**
   * This library as a document with its own families sees it (`registered`: those given to its
   * render). The view shares the library's faces and caches (it is made over it, not copied), so
   * no bundled font loads twice.
   */
  withFamilies(families: Readonly<DocumentFonts>, registered: RegisteredFonts = RegisteredFonts.none): FontLibrary {
    if (families.text === 'serif' && families.heading === 'serif' && families.mono === 'mono' && registered.size === 0) return this;
    const view = Object.create(this) as FontLibrary;
    view.families = families;
    view.registered = registered;
    view.registeredChoice = [];
    return view;
  }

  /** The bundled style a style stands for in this view, with the document's family put in for `serif`, `heading` and `mono`. */
  private physical(style: FontStyle): FontStyle {
    const family =
      style.family === 'serif'
        ? this.families.text
        : style.family === 'heading'
          ? this.families.heading
          : style.family === 'mono'
            ? this.families.mono
            : style.family;
    return family === style.family ? style : { ...style, family: family as FontStyle['family'] };
  }

  /**
   * For a style whose family is registered in this view: its face, and the bundled style of the
   * same look that draws what the face lacks; null for a bundled family (checked with no
   * allocation, as it is on every character).
   */
  private registeredFor(style: FontStyle): RegisteredChoice | null {
    if (this.registered.size === 0) return null;
    const index = roleStyleIndex(style);
    let choice = this.registeredChoice[index];
    if (choice === undefined) {
      const family = this.physical(style).family;
      if (!this.registered.has(family)) choice = null;
      else {
        const registered = this.registered.match(family, WEIGHT_NUMBERS[style.weight], style.italic);
        choice = { face: registered.face, standIn: { family: STAND_IN[registered.design], weight: style.weight, italic: style.italic } };
      }
      this.registeredChoice[index] = choice;
    }
    return choice;
  }

  face(key: string): Face {
    let face = this.faces.get(key);
    if (!face) {
      const entry = BUNDLED_FACES.find((candidate) => candidate.key === key);
      if (!entry) throw new Error(`no font face "${key}"`);
      face = load(entry);
      this.faces.set(key, face);
    }
    return face;
  }

  /** Registers a face made elsewhere (a system font chosen by coverage) so painting can find it. */
  private remember(face: Face): Face {
    this.faces.set(face.key, face);
    return face;
  }

  /** Looks up a face by key, including system faces already chosen by coverage and faces registered for the render. */
  known(key: string): Face {
    return this.registered.known(key) ?? this.faces.get(key) ?? this.face(key);
  }

  private readonly primaries: (Face | undefined)[] = [];

  primary(given: FontStyle): Face {
    return this.registeredFor(given)?.face ?? this.bundledPrimary(this.physical(given));
  }

  private bundledPrimary(style: FontStyle): Face {
    const index = styleIndex(style);
    return (this.primaries[index] ??= this.face(primaryKey(style)));
  }

  /** The face to draw `codePoint` in for `style`, or null when no font has it. */
  faceFor(given: FontStyle, codePoint: number): Face | null {
    const registered = this.registeredFor(given);
    if (registered?.face.has(codePoint)) return registered.face;
    const style = registered ? registered.standIn : this.physical(given);
    const primary = this.bundledPrimary(style);
    if (primary.has(codePoint)) return primary;
    const cacheKey = codePoint * STYLE_COUNT + styleIndex(style);
    let found = this.choice.get(cacheKey);
    if (found === undefined) {
      found = this.fallbackCovering(style, [codePoint]);
      this.choice.set(cacheKey, found);
    }
    return found;
  }

  /**
   * One face for a run of letters the style's own face cannot draw whole (a polytonic Greek
   * word, whose plain letters Source Serif has and whose accented ones it lacks), so that the
   * word is not drawn in two designs; null when no single face has every character. For a
   * registered family, the bundled face of its look draws the run if it can, before any fallback.
   */
  faceForRun(given: FontStyle, run: string): Face | null {
    const registered = this.registeredFor(given);
    const style = registered ? registered.standIn : this.physical(given);
    const codePoints = () => [...run].map((char) => char.codePointAt(0)!).filter((codePoint) => !isJoinerOrSelector(codePoint));
    if (registered) {
      const standIn = this.bundledPrimary(style);
      if (codePoints().every((codePoint) => standIn.has(codePoint))) return standIn;
    }
    const cacheKey = `${styleIndex(style)}:${run}`;
    let found = this.runChoice.get(cacheKey);
    if (found === undefined) {
      found = this.fallbackCovering(style, codePoints());
      if (this.runChoice.size >= MAX_RUN_CHOICES) this.runChoice.clear();
      this.runChoice.set(cacheKey, found);
    }
    return found;
  }

  /** The first fallback, bundled then system, with every one of `codePoints`, those matching the style's look first. */
  private fallbackCovering(style: FontStyle, codePoints: readonly number[]): Face | null {
    for (const entry of this.fallbackOrder(style)) {
      if (!codePoints.every((codePoint) => this.mayCover(entry, codePoint))) continue;
      const face = this.face(entry.key);
      if (codePoints.every((codePoint) => face.has(codePoint))) return face;
    }
    const system = this.system.faceFor(codePoints, style.weight !== 'regular');
    return system ? this.remember(system) : null;
  }

  private readonly fallbackOrders: (BundledFace[] | undefined)[] = [];

  /** Bundled fallbacks by how well they match the style: design (serif text, serif fallback), then weight, then slant. */
  private fallbackOrder(style: FontStyle): BundledFace[] {
    const index = styleIndex(style);
    return (this.fallbackOrders[index] ??= rankFallbacks(style));
  }

  private readonly fallbackCoverage = new Map<string, Uint32Array | null>();

  /**
   * Whether a fallback face's character map lists `codePoint`, read from the map alone, so that
   * a character none of them has (Malayalam in the CommonMark spec) does not parse every fallback
   * font whole (~25 ms). A map that cannot be read answers maybe; the face still decides.
   */
  private mayCover(entry: BundledFace, codePoint: number): boolean {
    if (this.faces.has(entry.key)) return true;
    let ranges = this.fallbackCoverage.get(entry.key);
    if (ranges === undefined) {
      ranges = readCoverage(entry.file)[0]?.ranges ?? null;
      this.fallbackCoverage.set(entry.key, ranges);
    }
    return ranges === null || covers(ranges, codePoint);
  }
}

interface RegisteredChoice {
  face: Face;
  /** The bundled style of the face's look: its face and fallbacks draw what the registered face lacks. */
  standIn: FontStyle;
}

/** A small integer per style as asked for, by role (serif, heading, sans, mono), weight and slant. */
function roleStyleIndex(style: FontStyle): number {
  const role = style.family === 'serif' ? 0 : style.family === 'heading' ? 1 : style.family === 'sans' ? 2 : 3;
  const weight = style.weight === 'regular' ? 0 : style.weight === 'semibold' ? 1 : 2;
  return role * 6 + weight * 2 + (style.italic ? 1 : 0);
}

/** The bundled family that draws what a registered face of each look lacks. */
const STAND_IN: Record<Design, FontStyle['family']> = { serif: 'serif', sans: 'sans', mono: 'mono' };

/** A small integer per distinct style (of a physical family): cheaper to look up than a string key on every character. */
function styleIndex(style: FontStyle): number {
  const weight = style.weight === 'regular' ? 0 : style.weight === 'semibold' ? 1 : 2;
  return (style.family === 'mono' ? 12 : style.family === 'sans' ? 6 : 0) + weight * 2 + (style.italic ? 1 : 0);
}

function primaryKey(style: FontStyle): string {
  const weight = style.family === 'mono' && style.weight === 'semibold' ? 'bold' : style.weight;
  const parts: string[] = [style.family];
  if (weight !== 'regular') parts.push(weight);
  if (style.italic) parts.push('italic');
  return parts.join('-');
}

/** Distinct values of styleIndex. */
const STYLE_COUNT = 18;
/** Distinct runs whose face is remembered; a document of endless distinct words cannot grow it past this. */
const MAX_RUN_CHOICES = 10_000;

function rankFallbacks(style: FontStyle): BundledFace[] {
  // Code has no monospaced fallback; a sans is nearer to it than a serif.
  const design = style.family === 'serif' ? 'serif' : 'sans';
  const bold = style.weight !== 'regular';
  const score = (entry: BundledFace) =>
    (entry.design === design ? 4 : 0) + ((entry.weight !== 'regular') === bold ? 2 : 0) + (entry.italic === style.italic ? 1 : 0);
  // Array sort is stable: equally good faces keep the catalogue's order.
  return BUNDLED_FACES.filter((entry) => entry.family === 'fallback').sort((a, b) => score(b) - score(a));
}

function load(entry: BundledFace): Face {
  const bytes = readFileSync(entry.file);
  const font = fontkit.create(bytes);
  if ('fonts' in font) throw new Error(`${entry.file} is a collection; bundle single fonts`);
  return new Face(entry.key, font, bytes);
}

/** One library per process: fonts are immutable and their caches only grow useful. */
export const fontLibrary = new FontLibrary();
