import { FIT_EPSILON } from '../knuth-plass.js';
import { shapePiece, slicePiece, type Piece } from './words.js';

/** One part of a cut fragment, and the mark drawn after it where the line ends inside the word. */
export interface CutPart {
  pieces: Piece[];
  /** The hyphen after every part but the last; null there, and where no hyphen is drawn. */
  hyphen: Piece | null;
}

export interface CutSettings {
  /** The measure every part (with its hyphen) must fit. */
  width: number;
  /** Width drawn after the fragment's last part (the hyphen of the hyphenation point it ends at). */
  trailing: number;
  /** Draw a hyphen at each cut; off where the caller marks continued lines itself (code's ↪). */
  hyphens: boolean;
}

/** A cut here leaves the word where a reader sees it come apart: after `_`, `.`, `/` and the like. */
const JOINING_PUNCTUATION = /[_./\\:,;=&?#@+~|]/u;

/** Between a grapheme cluster and the next, or around an inline object: where a cut may fall. */
interface Unit {
  piece: number;
  /** Glyphs of a text piece the unit covers. */
  from: number;
  to: number;
  width: number;
  text: string;
}

/**
 * The last resort against running past the measure: cuts an unbreakable fragment of a word (no
 * break opportunity, no hyphenation point inside) that is wider than the line into parts that
 * fit. Every cut draws a hyphen, so a word is never cut between letters without one (extraction
 * still keeps the word whole). Cuts fall where the word comes apart naturally when one is in the
 * second half of the line — after joining punctuation, at a lower-case to capital step
 * (camelCase), between letters and digits — and else at the last character that fits.
 */
export function cutToWidth(pieces: readonly Piece[], settings: CutSettings): CutPart[] {
  const units = unitsOf(pieces);
  const hyphens = pieces.map((piece) => (settings.hyphens ? hyphenFor(piece) : null));
  const hyphenAfter = (unit: number) => hyphens[units[unit]!.piece]?.width ?? 0;
  const offsets = [0];
  for (const unit of units) offsets.push(offsets.at(-1)! + unit.width);
  const span = (from: number, to: number) => offsets[to]! - offsets[from]!;

  const parts: CutPart[] = [];
  let start = 0;
  for (let i = 0; i < units.length; i++) {
    const after = i === units.length - 1 ? settings.trailing : hyphenAfter(i);
    while (i > start && span(start, i + 1) + after > settings.width + FIT_EPSILON) {
      const cut = cutPoint(
        units,
        start,
        i,
        (at) => span(start, at) + hyphenAfter(at - 1) <= settings.width + FIT_EPSILON && span(start, at) >= settings.width / 2,
      );
      parts.push({ pieces: piecesOf(pieces, units, start, cut), hyphen: hyphens[units[cut - 1]!.piece] ?? null });
      start = cut;
    }
  }
  parts.push({ pieces: piecesOf(pieces, units, start, units.length), hyphen: null });
  return parts;
}

/** The natural cut in (start, end] that fits, nearest the end; else `end` (which always fits). */
function cutPoint(units: Unit[], start: number, end: number, acceptable: (at: number) => boolean): number {
  for (let at = end; at > start; at--) if (isNatural(units[at - 1]!.text, units[at]!.text) && acceptable(at)) return at;
  return end;
}

function isNatural(before: string, after: string): boolean {
  const last = before.at(-1) ?? '';
  const first = after[0] ?? '';
  if (JOINING_PUNCTUATION.test(last)) return true;
  if (/\p{Ll}/u.test(last) && /\p{Lu}/u.test(first)) return true;
  return (/\p{L}/u.test(last) && /\p{N}/u.test(first)) || (/\p{N}/u.test(last) && /\p{L}/u.test(first));
}

/** A hyphen in the piece's own face and style; none for objects or right-to-left text. */
function hyphenFor(piece: Piece): Piece | null {
  if (piece.kind === 'object' || piece.level % 2 === 1) return null;
  return shapePiece(piece.face, '-', piece.style, piece.level);
}

function unitsOf(pieces: readonly Piece[]): Unit[] {
  const units: Unit[] = [];
  pieces.forEach((piece, index) => {
    if (piece.kind !== 'text') {
      units.push({ piece: index, from: 0, to: 0, width: piece.width, text: piece.kind === 'missing' ? piece.chars : '\ufffc' });
      return;
    }
    piece.glyphs.forEach((glyph, g) => {
      // A glyph with no characters of its own continues the cluster before it.
      const unit = units.at(-1);
      if (g > 0 && glyph.chars.length === 0 && unit) {
        unit.to = g + 1;
        unit.width += glyph.advance;
      } else {
        units.push({ piece: index, from: g, to: g + 1, width: glyph.advance, text: glyph.chars });
      }
    });
  });
  return units;
}

/** The pieces units [from, to) cover, text pieces sliced at the units' glyphs. */
function piecesOf(pieces: readonly Piece[], units: Unit[], from: number, to: number): Piece[] {
  const out: Piece[] = [];
  for (let i = from; i < to; ) {
    const piece = pieces[units[i]!.piece]!;
    let j = i;
    while (j + 1 < to && units[j + 1]!.piece === units[i]!.piece) j++;
    out.push(piece.kind === 'text' ? slicePiece(piece, units[i]!.from, units[j]!.to) : piece);
    i = j + 1;
  }
  return out;
}
