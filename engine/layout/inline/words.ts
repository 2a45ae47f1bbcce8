import type { Face, ShapedText } from '../../text/face.js';
import type { FontLibrary } from '../../text/font-library.js';
import { analyzeBidi, type BidiInfo } from '../../text/bidi.js';
import { breakOpportunities } from '../../text/break-opportunities.js';
import { isJoinerOrSelector, letterRun } from '../../text/letter-runs.js';
import type { Hyphenator } from '../../text/hyphenation.js';
import type { PlacedGlyph } from '../frame.js';
import type { FlatText, Span } from './flatten.js';
import { measureObject, type InlineObject, type ObjectBox } from './objects.js';
import { FORCED_BREAK, OBJECT_CHAR } from './flatten.js';
import type { RunStyle } from './run-style.js';

/** Text in one face, style and direction, shaped; or an object; or a character no font has. */
export type Piece =
  | { kind: 'text'; style: RunStyle; face: Face; level: number; glyphs: PlacedGlyph[]; width: number; actualText: string | null; perGlyphText: boolean }
  | { kind: 'missing'; style: RunStyle; face: Face; level: number; chars: string; width: number }
  | { kind: 'object'; style: RunStyle; level: number; object: InlineObject; width: number; box: ObjectBox };

/** What may follow a word: a space (glue), a plain break opportunity, a forced break, or nothing. */
export interface Word {
  /** Where the word starts in the paragraph's text. */
  start: number;
  pieces: Piece[];
  /** Where the word may be hyphenated: the shaped hyphen to draw after a piece, by piece index; null for none (most words). */
  hyphens: Map<number, Piece> | null;
  /** The space after the word; one the line may not break at (a tie) still stretches and shrinks. */
  space: { piece: Piece; breakable: boolean } | null;
  breakAfter: { penalty: number; forced: boolean } | null;
}

/** Pieces of a word between its hyphenation points, and the hyphen drawn when a line ends after them. */
export interface Fragment {
  pieces: Piece[];
  hyphen: Piece | null;
}

/** A word cut at its hyphenation points: the parts no line break may fall inside (save a last-resort cut). */
export function wordFragments(word: Word): Fragment[] {
  const fragments: Fragment[] = [];
  let pieces: Piece[] = [];
  word.pieces.forEach((piece, index) => {
    pieces.push(piece);
    const hyphen = word.hyphens?.get(index);
    if (hyphen) {
      fragments.push({ pieces, hyphen });
      pieces = [];
    }
  });
  if (pieces.length > 0) fragments.push({ pieces, hyphen: null });
  return fragments;
}

export interface ParagraphWords {
  words: Word[];
  bidi: BidiInfo;
}

export interface WordSettings {
  fonts: FontLibrary;
  hyphenator: Hyphenator | null;
  /** The measure, which inline objects are shrunk to fit. */
  lineWidth: number;
}

const SPACE = /^[ ]+$/;
const MARK = /^\p{M}$/u;
const OBJECT_CODE = OBJECT_CHAR.codePointAt(0)!;

/**
 * Joiners and variation selectors stay in the face of the character before, and so do combining
 * marks when that face has them (one it lacks sends the letters it sits on to a fallback).
 */
function staysInFace(codePoint: number, face: Face): boolean {
  return isJoinerOrSelector(codePoint) || (MARK.test(String.fromCodePoint(codePoint)) && face.has(codePoint));
}

/** Cuts the paragraph into words at break opportunities, then into shaped pieces. */
export function shapeWords(flat: FlatText, settings: WordSettings): ParagraphWords {
  const { text, spans } = flat;
  const bidi = analyzeBidi(text);
  const words: Word[] = [];
  const spanAt = spanLookup(spans);
  const spaceAt = (from: number, to: number): Piece => {
    const style = spanAt(from).style;
    return shapePiece(settings.fonts.primary(style.font), text.slice(from, to), style, bidi.levels[from] ?? 0);
  };
  const wordOf = (from: number, to: number): Word => {
    const word: Word = { start: from, pieces: [], hyphens: null, space: null, breakAfter: null };
    if (to > from) itemize(text, from, to, spanAt, bidi, settings, word);
    return word;
  };
  let start = 0;
  for (const opportunity of breakOpportunities(text)) {
    if (opportunity.position <= start) continue;
    const end = opportunity.position;
    const codeHyphen = codeHyphenBreak(text, end, spanAt);
    if (codeHyphen === NEVER) continue;
    const segment = text.slice(start, end);
    const forcedBreak = segment.endsWith(FORCED_BREAK);
    const body = segment.replace(/[ \u2028]+$/, '');
    const bodyEnd = start + body.length;
    // Spaces inside the segment, where UAX #14 forbids a break (before "." or "/", after "("),
    // are word spaces all the same: they stretch with the others; and a space between prose and
    // inline code is a break, whatever the code's first or last character.
    let from = start;
    for (const [spaceStart, spaceEnd] of innerSpaces(body, start)) {
      const word = wordOf(from, spaceStart);
      word.space = { piece: spaceAt(spaceStart, spaceEnd), breakable: isCode(spanAt(spaceStart - 1)) !== isCode(spanAt(spaceEnd)) };
      words.push(word);
      from = spaceEnd;
    }
    const word = wordOf(from, bodyEnd);
    const spaceText = text.slice(bodyEnd, end).replace(FORCED_BREAK, '');
    if (spaceText.length > 0 && SPACE.test(spaceText)) word.space = { piece: spaceAt(bodyEnd, bodyEnd + spaceText.length), breakable: true };
    if (forcedBreak) word.breakAfter = { penalty: -Infinity, forced: true };
    else if (!word.space) word.breakAfter = { penalty: opportunity.penalty + codeHyphen, forced: false };
    if (word.pieces.length > 0 || word.space || forcedBreak) words.push(word);
    start = end;
  }
  return { words, bidi };
}

/** Runs of spaces with something other than space on both sides, as [start, end) offsets; leading spaces (code's indentation) stay in the word. */
function innerSpaces(body: string, offset: number): [number, number][] {
  if (body.indexOf(' ', 1) < 0) return [];
  const runs: [number, number][] = [];
  for (const match of body.matchAll(/ +/g)) {
    if (match.index > 0) runs.push([offset + match.index, offset + match.index + match[0].length]);
  }
  return runs;
}

const NEVER = Infinity;
/** Breaking after a hyphen inside code costs what breaking inside a long token does. */
const CODE_HYPHEN_PENALTY = 50;

/**
 * The extra cost of a break at `end`, after a hyphen inside inline code: a line ending in a
 * hyphen reads as hyphenation, which code never has (TeX breaks no hyphen in typewriter type).
 * After the hyphens that open a word (an option's `-` or `--`) never; elsewhere
 * (`fix-axis-label`) only at a cost, for code that has no better place to break. 0 elsewhere.
 */
function codeHyphenBreak(text: string, end: number, spanAt: (index: number) => Span): number {
  if (text[end - 1] !== '-' || end >= text.length || !isCode(spanAt(end - 1)) || !isCode(spanAt(end))) return 0;
  let first = end - 1;
  while (first > 0 && text[first - 1] === '-') first--;
  const opensWord = first === 0 || /\s/.test(text[first - 1]!) || !isCode(spanAt(first - 1));
  return opensWord ? NEVER : CODE_HYPHEN_PENALTY;
}

function isCode(span: Span): boolean {
  return span.style.features === 'code';
}

function itemize(text: string, start: number, end: number, spanAt: (index: number) => Span, bidi: BidiInfo, settings: WordSettings, word: Word): void {
  let runStart = start;
  let runFace: Face | null | undefined;
  let runSpan: Span | undefined;
  let runLevel = -1;
  const flush = (until: number) => {
    if (runSpan === undefined || until <= runStart) return;
    const level = runLevel;
    if (runSpan.object) {
      const box = measureObject(runSpan.object, runSpan.style, settings.lineWidth, settings.fonts);
      word.pieces.push({ kind: 'object', style: runSpan.style, level, object: runSpan.object, width: box.width, box });
    } else if (runFace === null) {
      const chars = text.slice(runStart, until);
      const face = settings.fonts.primary(runSpan.style.font);
      for (const char of chars) {
        const width = (face.font.getGlyph(0).advanceWidth || face.unitsPerEm * 0.6) * face.scale(runSpan.style.size);
        word.pieces.push({ kind: 'missing', style: runSpan.style, face, level, chars: char, width });
      }
    } else {
      const logical = text.slice(runStart, until);
      const chunk = level % 2 === 1 ? mirror(logical, runStart, bidi.mirrored) : logical;
      pushShaped(word, runFace!, chunk, logical, runSpan.style, level, runStart, settings.hyphenator, text, start, end);
    }
  };
  // A run of letters drawn whole in a fallback face (see letterRun), and where it ends.
  let wholeFace: Face | null = null;
  let wholeEnd = start;
  for (let i = start; i < end; ) {
    const codePoint = text.codePointAt(i)!;
    const length = codePoint > 0xffff ? 2 : 1;
    const span = spanAt(i);
    const level = bidi.levels[i] ?? 0;
    let face: Face | null;
    // Where the run of this face starts: before `i` when letters already passed join it.
    let from = i;
    if (span.object || codePoint === OBJECT_CODE) face = null;
    else if (i < wholeEnd) face = wholeFace;
    else if (codePoint >= 0x300 && runFace && staysInFace(codePoint, runFace)) face = runFace;
    else {
      const primary = settings.fonts.primary(span.style.font);
      if (primary.has(codePoint)) face = primary;
      else {
        const joinsPending = span === runSpan && level === runLevel && runFace === primary;
        const [runFrom, runTo] = letterRun(text, i, joinsPending ? runStart : i, Math.min(end, span.end));
        const whole = runTo - runFrom > length ? settings.fonts.faceForRun(span.style.font, text.slice(runFrom, runTo)) : null;
        if (whole) {
          [face, from, wholeFace, wholeEnd] = [whole, runFrom, whole, runTo];
        } else face = settings.fonts.faceFor(span.style.font, codePoint);
      }
    }
    if (span !== runSpan || face !== runFace || level !== runLevel || span.object) {
      flush(from);
      runStart = from;
      runSpan = span;
      runFace = face;
      runLevel = level;
    }
    i += length;
  }
  flush(end);
}

/**
 * Shapes a run and, when the word may be hyphenated, cuts the shaped glyphs at the hyphenation
 * points that fall between glyph clusters, so the pieces painted are the ones shaped.
 */
function pushShaped(
  word: Word,
  face: Face,
  chunk: string,
  logical: string,
  style: RunStyle,
  level: number,
  chunkStart: number,
  hyphenator: Hyphenator | null,
  text: string,
  wordStart: number,
  wordEnd: number,
): void {
  const whole = shapePiece(face, chunk, style, level, logical);
  const points = hyphenator && level % 2 === 0 && style.features === 'text' ? hyphenator(text.slice(wordStart, wordEnd)) : [];
  const local = points.map((point) => point + wordStart - chunkStart).filter((point) => point > 0 && point < chunk.length);
  if (local.length === 0 || whole.actualText !== null || whole.perGlyphText) {
    word.pieces.push(whole);
    return;
  }
  let consumed = 0;
  let glyphStart = 0;
  const cuts = new Set(local);
  whole.glyphs.forEach((glyph, index) => {
    consumed += glyph.chars.length;
    const next = whole.glyphs[index + 1];
    const atClusterEnd = next !== undefined && next.chars.length > 0;
    if (atClusterEnd && cuts.has(consumed)) {
      word.pieces.push(slicePiece(whole, glyphStart, index + 1));
      (word.hyphens ??= new Map()).set(word.pieces.length - 1, shapePiece(face, '-', style, level));
      glyphStart = index + 1;
    }
  });
  word.pieces.push(slicePiece(whole, glyphStart, whole.glyphs.length));
}

/**
 * Scripts whose glyphs do not map one-to-one onto characters: Indic vowel signs reorder (the
 * run's text is given whole, in logical order), and Arabic joining forms share glyphs (each
 * glyph is given its own characters, leaving the visual order for readers to reverse).
 */
const REORDERING_SCRIPT = /[\u0900-\u0dff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff]/;
const JOINING_SCRIPT = /[\u0600-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/;

export function shapePiece(face: Face, chunk: string, style: RunStyle, level: number, logical: string = chunk): Piece & { kind: 'text' } {
  const shaped = face.shape(chunk, level % 2 === 1 ? 'rtl' : 'ltr', style.features);
  const scale = face.scale(style.size);
  const glyphs = placedGlyphs(shaped, style.size, scale);
  const actualText = level % 2 === 0 && REORDERING_SCRIPT.test(logical) ? logical : null;
  return { kind: 'text', style, face, level, glyphs, width: shaped.advance * scale, actualText, perGlyphText: JOINING_SCRIPT.test(logical) };
}

/** Glyphs scaled to a size, shared by every piece of the same word at that size (never mutated). */
const placedCache = new WeakMap<ShapedText, Map<number, PlacedGlyph[]>>();

function placedGlyphs(shaped: ShapedText, size: number, scale: number): PlacedGlyph[] {
  let bySize = placedCache.get(shaped);
  if (!bySize) {
    bySize = new Map();
    placedCache.set(shaped, bySize);
  }
  let glyphs = bySize.get(size);
  if (!glyphs) {
    glyphs = shaped.glyphs.map((glyph) => ({ id: glyph.id, advance: glyph.advance * scale, dx: glyph.dx * scale, dy: glyph.dy * scale, chars: glyph.chars }));
    bySize.set(size, glyphs);
  }
  return glyphs;
}

export function slicePiece(piece: Piece & { kind: 'text' }, from: number, to: number): Piece & { kind: 'text' } {
  const glyphs = piece.glyphs.slice(from, to);
  return { ...piece, glyphs, width: glyphs.reduce((sum, glyph) => sum + glyph.advance, 0) };
}

function mirror(chunk: string, offset: number, mirrored: Map<number, string>): string {
  if (mirrored.size === 0) return chunk;
  let out = '';
  for (let i = 0; i < chunk.length; i++) out += mirrored.get(offset + i) ?? chunk[i];
  return out;
}

function spanLookup(spans: readonly Span[]): (index: number) => Span {
  let cursor = 0;
  return (index: number) => {
    if (index < spans[cursor]!.start) cursor = 0;
    while (cursor < spans.length - 1 && spans[cursor]!.end <= index) cursor++;
    return spans[cursor]!;
  };
}
