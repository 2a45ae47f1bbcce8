import { NO_MARKS, type Inline } from '../../document/types.js';
import type { FontLibrary } from '../../text/font-library.js';
import type { Hyphenator } from '../../text/hyphenation.js';
import type { DrawingTextSetter } from '../drawing-items.js';
import { destination } from '../frame.js';
import { breakLines, FIT_EPSILON, INFINITE_PENALTY, type KpBreak, type KpNode } from '../knuth-plass.js';
import { cutToWidth, type CutSettings } from './emergency-cuts.js';
import type { StructId, Tagger } from '../structure.js';
import type { Palette } from '../../style/palette.js';
import { flattenInlines, type FlatAnchor } from './flatten.js';
import { drawLine, type LaidLine, type LineEntry, type LineSettings } from './line-items.js';
import type { BaseStyle } from './run-style.js';
import { shapeWords, wordFragments, type Piece, type Word } from './words.js';

export type Alignment = 'justify' | 'start' | 'center' | 'end';

export interface ParagraphSettings {
  base: BaseStyle;
  width: number;
  /** Left edge of the lines on the page. */
  x: number;
  leading: number;
  align: Alignment;
  hyphenator: Hyphenator | null;
  tag: StructId | null;
  /** Keep every space as typed (code) instead of collapsing runs of white space. */
  preserveSpaces?: boolean;
  /** The caller marks lines that continue a cut word itself (code's ↪): cuts draw no hyphen. */
  marksContinuations?: boolean;
}

export interface ParagraphEnv {
  fonts: FontLibrary;
  palette: Palette;
  tagger: Tagger;
}

/** Penalty for breaking at a hyphenation point in justified text (TeX's \hyphenpenalty). */
const HYPHEN_PENALTY = 50;
/**
 * The same in ragged text (table cells), where a hyphen buys no even spacing, only a fuller
 * line: it must save about two thirds of a line's width in white space to be worth it, so
 * "zwölf Monate" breaks between the words, not in "Mo-nate".
 */
const RAGGED_HYPHEN_PENALTY = 300;
/** Penalty for cutting an over-wide fragment of a word between characters, the last resort. */
const EMERGENCY_PENALTY = 500;
const FILL = 1e6;
/** Adjustment ratios tried in turn: a good paragraph, an acceptable one, then any at all. */
const TOLERANCES = [2.5, 6, Number.POSITIVE_INFINITY];

/** What a node draws, and where the word it belongs to starts in the paragraph's text. */
type Payload = { piece: Piece | null; hyphen: Piece | null; offset: number };

/** How narrow and how wide a paragraph can be set (a table column is sized from these). */
export interface ParagraphMeasure {
  /** The widest unbreakable fragment: a word, or the part of one between hyphenation points with its hyphen. */
  min: number;
  /** The widest word, kept whole. */
  minWhole: number;
  /** All of it on one line (each line, where breaks are forced). */
  max: number;
}

export function measureParagraph(inlines: readonly Inline[], settings: ParagraphSettings, env: ParagraphEnv): ParagraphMeasure {
  const flat = flattenInlines(inlines, settings.base, env.palette, env.tagger, settings.tag, settings.preserveSpaces ?? false);
  const { words } = shapeWords(flat, { fonts: env.fonts, hyphenator: settings.hyphenator, lineWidth: settings.width });
  let min = 0;
  let minWhole = 0;
  let max = 0;
  let line = 0;
  // Words tied by spaces no line may break at measure as one: a tie carries the run on.
  let unbreakable = 0;
  for (const word of words) {
    const fragments = wordFragments(word);
    let width = 0;
    fragments.forEach((fragment, index) => {
      const fragmentWidth = widthOf(fragment.pieces);
      min = Math.max(min, (index === 0 ? unbreakable : 0) + fragmentWidth + (fragment.hyphen?.width ?? 0));
      width += fragmentWidth;
    });
    minWhole = Math.max(minWhole, unbreakable + width);
    const lastRun = fragments.length <= 1 ? unbreakable + width : widthOf(fragments.at(-1)!.pieces);
    line += width;
    max = Math.max(max, line);
    line += word.space?.piece.width ?? 0;
    unbreakable = word.space && !word.space.breakable ? lastRun + word.space.piece.width : 0;
    if (word.breakAfter?.forced) line = 0;
  }
  return { min, minWhole, max };
}

function widthOf(pieces: readonly Piece[]): number {
  return pieces.reduce((sum, piece) => sum + piece.width, 0);
}

/** Inline content → lines, broken by Knuth–Plass over shaped words. */
export function layoutParagraph(inlines: readonly Inline[], settings: ParagraphSettings, env: ParagraphEnv): LaidLine[] {
  const flat = flattenInlines(inlines, settings.base, env.palette, env.tagger, settings.tag, settings.preserveSpaces ?? false);
  if (flat.text.length === 0) return flat.anchors.length > 0 ? [anchorLine(flat.anchors, settings.x)] : [];
  const { words, bidi } = shapeWords(flat, {
    fonts: env.fonts,
    hyphenator: settings.hyphenator,
    lineWidth: settings.width,
  });
  const justified = settings.align === 'justify';
  const { nodes, payloads } = toNodes(words, { width: settings.width, trailing: 0, hyphens: !settings.marksContinuations }, justified);
  const breaks = chooseBreaks(nodes, settings.width, justified, settings.base.size);
  const lines: LaidLine[] = [];
  const wholeWords = brokenWordText(nodes, payloads, breaks);
  const drawn = lineSettings(settings, env, bidi.baseLevel % 2 === 1);
  // In a justified paragraph the last line, and any line a forced break ends, is set ragged.
  const ragged: LineSettings = justified ? { ...drawn, align: 'start' } : drawn;
  const lineOffsets: number[] = [];
  let start = 0;
  for (const lineBreak of breaks) {
    const entries = lineEntries(nodes, payloads, start, lineBreak, justified, wholeWords);
    const last = lineBreak.position === nodes.length - 1 || isForced(nodes[lineBreak.position]!);
    lines.push(drawLine(entries, last ? ragged : drawn, payloads[lineBreak.position]?.hyphen != null));
    lineOffsets.push(payloads[start]!.offset);
    start = lineBreak.position + 1;
  }
  placeAnchors(lines, lineOffsets, flat.anchors, settings.x);
  return lines;
}

/**
 * Each anchor becomes a destination at the top of the line its place in the text falls on: the
 * last line starting at or before it. Anchors come in the order of their places.
 */
function placeAnchors(lines: LaidLine[], lineOffsets: readonly number[], anchors: readonly FlatAnchor[], x: number): void {
  let index = 0;
  for (const anchor of anchors) {
    while (index + 1 < lines.length && lineOffsets[index + 1]! <= anchor.offset) index++;
    lines[index]!.items.unshift(destination(anchor.name, x));
  }
}

/** Content of nothing but anchors: a line of no height that carries their destinations. */
function anchorLine(anchors: readonly FlatAnchor[], x: number): LaidLine {
  return { height: 0, baseline: 0, width: 0, items: anchors.map((anchor) => destination(anchor.name, x)), footnotes: [], hyphenated: false };
}

/** How a paragraph's lines are drawn: the text's ascent and descent set the baseline in the leading. */
export function lineSettings(settings: ParagraphSettings, env: ParagraphEnv, rtl: boolean): LineSettings {
  const face = env.fonts.primary(settings.base.font);
  const scale = face.scale(settings.base.size);
  return {
    x: settings.x,
    width: settings.width,
    leading: settings.leading,
    textAscent: face.ascent * scale,
    textDescent: -face.descent * scale,
    align: settings.align,
    rtl,
    palette: env.palette,
    fonts: env.fonts,
    setDrawingText: drawingTextSetter(env),
  };
}

/**
 * Sets a drawing's text (an SVG's, a diagram's) as one line of a paragraph, spaces kept as typed:
 * given to `drawingItems` by what places a drawing, a line (above) or a block.
 */
export function drawingTextSetter(env: ParagraphEnv): DrawingTextSetter {
  return (text, size, tag) =>
    layoutParagraph(
      [{ kind: 'text', text: text.text, marks: NO_MARKS, link: null, code: null }],
      {
        base: { font: text.font, size, color: text.color, features: text.font.family === 'mono' ? 'code' : 'text' },
        width: 100_000,
        x: 0,
        leading: size * 1.2,
        align: 'start',
        hyphenator: null,
        tag,
        preserveSpaces: true,
      },
      env,
    )[0];
}

/** Shaped words → Knuth–Plass boxes, glue and penalties, each with the piece it draws. */
function toNodes(words: readonly Word[], cut: CutSettings, justified: boolean): { nodes: KpNode[]; payloads: Payload[] } {
  const nodes: KpNode[] = [];
  const payloads: Payload[] = [];
  let offset = 0;
  const push = (node: KpNode, piece: Piece | null = null, hyphen: Piece | null = null) => {
    nodes.push(node);
    payloads.push({ piece, hyphen, offset });
  };
  const pushBoxes = (pieces: readonly Piece[]) => {
    for (const piece of pieces) push({ type: 'box', width: piece.width }, piece);
  };
  for (const word of words) {
    offset = word.start;
    for (const { pieces, hyphen } of wordFragments(word)) {
      const trailing = hyphen?.width ?? 0;
      if (widthOf(pieces) + trailing <= cut.width + FIT_EPSILON) pushBoxes(pieces);
      else {
        // Flagged like a hyphenation point, so the cut word still extracts whole.
        cutToWidth(pieces, { ...cut, trailing }).forEach((part, index, parts) => {
          pushBoxes(part.pieces);
          if (index < parts.length - 1) push({ type: 'penalty', width: part.hyphen?.width ?? 0, penalty: EMERGENCY_PENALTY, flagged: true }, null, part.hyphen);
        });
      }
      if (hyphen) push({ type: 'penalty', width: hyphen.width, penalty: justified ? HYPHEN_PENALTY : RAGGED_HYPHEN_PENALTY, flagged: true }, null, hyphen);
    }
    if (word.space) {
      // A penalty before the glue makes it no break (TeX's tie, ~).
      if (!word.space.breakable) push({ type: 'penalty', width: 0, penalty: INFINITE_PENALTY, flagged: false });
      const space = word.space.piece.width;
      push({ type: 'glue', width: space, stretch: justified ? space / 2 : 0, shrink: justified ? space / 3 : 0 }, word.space.piece);
    }
    if (word.breakAfter?.forced) {
      push({ type: 'glue', width: 0, stretch: FILL, shrink: 0 });
      push({ type: 'penalty', width: 0, penalty: -INFINITE_PENALTY, flagged: false });
    } else if (word.breakAfter) {
      push({ type: 'penalty', width: 0, penalty: word.breakAfter.penalty, flagged: false });
    }
  }
  push({ type: 'glue', width: 0, stretch: FILL, shrink: 0 });
  push({ type: 'penalty', width: 0, penalty: -INFINITE_PENALTY, flagged: false });
  return { nodes, payloads };
}

function chooseBreaks(nodes: KpNode[], width: number, justified: boolean, size: number): KpBreak[] {
  const raggedStretch = justified ? 0 : 3 * size;
  for (const tolerance of TOLERANCES) {
    const breaks = breakLines(nodes, { lineWidth: width, tolerance, raggedStretch, allowOverfull: tolerance === Number.POSITIVE_INFINITY });
    if (breaks) return breaks;
  }
  throw new Error('line breaking found no solution at infinite tolerance');
}

function isForced(node: KpNode): boolean {
  return node.type === 'penalty' && node.penalty <= -INFINITE_PENALTY;
}

/**
 * A word broken across lines must extract whole: its first box stands for the whole word
 * (ActualText) and its other parts, on either line, for nothing. Returns that text by node. A word
 * breaks at a hyphenation point or a cut (flagged penalties), or where the text continues with no
 * space between (after the hyphen of "post-process", a slash, between CJK characters): left to
 * itself, a reader joins a line ending in "-" to the next and drops the hyphen ("postprocess").
 */
/**
 * Longer "words" (a run of text with no space, broken over many lines or pages) keep their text
 * line by line: one ActualText would carry the whole run on its first line's page.
 */
const MAX_WHOLE_WORD = 200;

function brokenWordText(nodes: KpNode[], payloads: Payload[], breaks: KpBreak[]): Map<number, string> {
  const texts = new Map<number, string>();
  const splits = (i: number) => {
    const node = nodes[i];
    if (node?.type !== 'penalty') return false;
    return node.flagged || (node.penalty < INFINITE_PENALTY && nodes[i - 1]?.type === 'box' && nodes[i + 1]?.type === 'box');
  };
  const inWord = (i: number) => nodes[i]?.type === 'box' || splits(i);
  // Breaks come in order: a word broken more than once is read once, so the whole is linear.
  let readUntil = -1;
  for (const { position } of breaks) {
    if (position <= readUntil || !splits(position)) continue;
    let start = position;
    while (inWord(start - 1)) start--;
    let end = position;
    while (inWord(end + 1)) end++;
    readUntil = end;
    const boxes: number[] = [];
    for (let j = start; j <= end; j++) if (nodes[j]!.type === 'box') boxes.push(j);
    const word = boxes.map((j) => pieceText(payloads[j]!.piece)).join('');
    if (word.length > MAX_WHOLE_WORD) continue;
    boxes.forEach((j, index) => texts.set(j, index === 0 ? word : ''));
  }
  return texts;
}

function pieceText(piece: Piece | null): string {
  if (!piece) return '';
  if (piece.kind === 'text') return piece.glyphs.map((glyph) => glyph.chars).join('');
  return piece.kind === 'missing' ? piece.chars : '';
}

/** The drawable entries of one line, with glue set to its adjusted width. */
function lineEntries(
  nodes: KpNode[],
  payloads: Payload[],
  start: number,
  lineBreak: KpBreak,
  justified: boolean,
  wholeWords: Map<number, string>,
): LineEntry[] {
  const entries: LineEntry[] = [];
  let i = start;
  while (i < lineBreak.position && nodes[i]!.type !== 'box') i++;
  const ratio = Number.isFinite(lineBreak.ratio) ? lineBreak.ratio : 0;
  for (; i < lineBreak.position; i++) {
    const node = nodes[i]!;
    const piece = payloads[i]!.piece;
    if (!piece) continue;
    if (node.type === 'glue') {
      const adjust = justified ? (ratio > 0 ? ratio * node.stretch : ratio * node.shrink) : 0;
      entries.push({ piece, width: node.width + adjust, actualText: null });
    } else if (node.type === 'box') {
      entries.push({ piece, width: node.width, actualText: wholeWords.get(i) ?? null });
    }
  }
  const hyphen = payloads[lineBreak.position]?.hyphen;
  if (hyphen) entries.push({ piece: hyphen, width: hyphen.width, actualText: '' });
  else keepSpaceAfterHyphen(entries, nodes[lineBreak.position]);
  return entries;
}

/**
 * A line broken at a space after a word that ends in a hyphen (the code `data-`, "pre- and
 * post-war") would extract joined to the next line's first word, the hyphen dropped, as readers
 * join hyphenated line ends: the word keeps its space in its ActualText so that it does not.
 */
function keepSpaceAfterHyphen(entries: LineEntry[], breakNode: KpNode | undefined): void {
  const last = entries.at(-1);
  if (breakNode?.type !== 'glue' || !last || last.actualText !== null || last.piece.kind !== 'text') return;
  const text = pieceText(last.piece);
  if (/[-\u2010]$/.test(text)) last.actualText = `${text} `;
}
