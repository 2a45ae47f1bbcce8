import { NO_MARKS, type Block, type HighlightedLine } from '../../document/types.js';
import { plainLines, tokenInline } from '../../document/code-blocks.js';
import { layoutParagraph } from '../inline/paragraph.js';
import { plainLine } from '../inline/plain-line.js';
import { shapePiece } from '../inline/words.js';
import { EMOJI_COLUMNS } from '../inline/objects.js';
import { translateItem, type FrameItem, type GlyphRunItem, type PathItem } from '../frame.js';
import { IDENTITY } from '../../drawing/matrix.js';
import { METRICS } from '../../style/metrics.js';
import { box, container, INFINITE_COST, penalty, type BlockNodes, type VBox, type VNode } from '../vertical.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { codeLook, smallLook } from './looks.js';
import { textLines, type TextLook } from './text-block.js';
import type { StructId } from '../structure.js';

const TAB_WIDTH = 4;

/**
 * A code block: lines exactly as typed on a tinted panel, long lines wrapped (continuing at
 * their indentation, after a mark), breaking across pages between lines.
 */
export function layoutCode(block: Block & { kind: 'code' }, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const look = codeLook(context.palette);
  const tag = context.tagger.add('Code', frame.tag);
  const pad = METRICS.codePadding;
  const lines = codeLines(block);
  const span = panelSpan(frame, lines, look, context);
  const panel = container({ kind: 'fill', ...span, color: context.palette.codeBackground, radius: 3 });
  const containers = [...frame.containers, panel];
  const inner = { x: span.x + pad, width: span.width - 2 * pad };
  const pieces = lines.map((tokens) => ({
    blank: tokens.every((token) => token.text.trim() === ''),
    boxes: codeLine(tokens, inner, look, tag, containers, context),
  }));

  const nodes: VNode[] = [box(pad, [], containers)];
  const count = pieces.reduce((sum, piece) => sum + piece.boxes.length, 0);
  let index = 0;
  for (const piece of pieces) {
    piece.boxes.forEach((line, within) => {
      if (index > 0) nodes.push(penalty(mayBreakBefore(index, count, within > 0 || piece.blank) ? 0 : INFINITE_COST));
      nodes.push(line);
      index += 1;
    });
  }
  nodes.push(box(pad, [], containers));
  if (block.note) nodes.unshift(...noteLines(block.note, frame, context), box(3, [], frame.containers));
  return { nodes, spaceBefore: METRICS.paragraphGap, spaceAfter: METRICS.paragraphGap };
}

/** A block this short never splits across pages. */
const UNBROKEN_LINES = 8;
/** Fewest lines a split block leaves on either page. */
const PIECE_LINES = 3;

/**
 * Whether a page may break before line `index` of `count`: never in a short block, never leaving
 * fewer than three lines on either side, and never so that the next page's piece starts with a
 * blank line or the rest of a wrapped one.
 */
function mayBreakBefore(index: number, count: number, startsBadly: boolean): boolean {
  return count > UNBROKEN_LINES && index >= PIECE_LINES && count - index >= PIECE_LINES && !startsBadly;
}

/**
 * Where the panel stands: the frame, widened into the margins when the longest line needs it —
 * into both at the top level, into the right one only where the frame is indented (a list, a
 * quote, whose left edge carries its own marks).
 */
function panelSpan(frame: BlockFrame, lines: readonly HighlightedLine[], look: TextLook, context: LayoutContext): { x: number; width: number } {
  const { marginInner, contentWidth } = context.geometry;
  const face = context.fonts.primary(look.font);
  const column = face.shape('0', 'ltr', 'code').advance * face.scale(look.size);
  const longest = Math.max(0, ...lines.map((tokens) => tokens.reduce((sum, token) => sum + (token.emoji ? EMOJI_COLUMNS : token.text.length), 0)));
  // Two columns more: every line is set as wide as a continuation, which hangs two columns in.
  const needed = (longest + 2) * column + 2 * METRICS.codePadding - frame.width;
  if (needed <= 0) return { x: frame.x, width: frame.width };
  const topLevel = frame.x <= marginInner;
  // Up to the reach past the text block's right edge (none beside another column).
  const right = context.codeReach === 0 ? 0 : Math.max(0, marginInner + contentWidth + context.codeReach - (frame.x + frame.width));
  const left = topLevel ? Math.min(context.codeReach, needed / 2) : 0;
  const grow = Math.min(needed, left + right);
  const leftShare = topLevel ? Math.min(left, grow / 2) : 0;
  return { x: frame.x - leftShare, width: frame.width + grow };
}

/** The block's lines as coloured tokens (one plain token per line when not highlighted), tabs expanded. */
function codeLines(block: Block & { kind: 'code' }): HighlightedLine[] {
  const lines = block.lines ?? plainLines(block.text);
  return lines.map((tokens) => {
    let column = 0;
    return tokens.map((token) => {
      if (token.emoji) {
        column += EMOJI_COLUMNS;
        return token;
      }
      let text = '';
      for (const char of token.text) {
        if (char === '\t') {
          const spaces = TAB_WIDTH - (column % TAB_WIDTH);
          text += ' '.repeat(spaces);
          column += spaces;
        } else {
          text += char;
          column++;
        }
      }
      return { ...token, text };
    });
  });
}

/** Why a fenced block is shown as code rather than drawn, in small muted italics. */
function noteLines(note: string, frame: BlockFrame, context: LayoutContext): VBox[] {
  const look = { ...smallLook(context.palette), font: { family: 'serif' as const, weight: 'regular' as const, italic: true } };
  return textLines([{ kind: 'text', text: note, marks: NO_MARKS, link: null, code: null }], look, frame, context.tagger.add('P', frame.tag), context);
}

function codeLine(
  tokens: HighlightedLine,
  inner: { x: number; width: number },
  look: TextLook,
  tag: StructId | null,
  containers: VBox['containers'],
  context: LayoutContext,
): VBox[] {
  const source = tokens.map((token) => token.text).join('');
  const indentText = /^ */.exec(source)![0];
  const rest = withoutPrefix(tokens, indentText.length);
  const style = {
    font: look.font,
    size: look.size,
    color: look.color,
    rise: 0,
    features: look.features!,
    background: null,
    strike: false,
    link: null,
    linkTag: null,
    tag,
  };
  const face = context.fonts.primary(look.font);
  const indent = indentText ? shapePiece(face, indentText, style, 0) : null;
  const indentWidth = Math.min(indent?.width ?? 0, inner.width / 2);
  // Continuation lines hang two characters further in, with the mark in that space.
  const hang = face.shape('  ', 'ltr', 'code').advance * face.scale(look.size);
  if (rest.length === 0 || source.length === indentText.length) {
    const items: FrameItem[] = indent ? [run(indent.glyphs, inner.x, look.leading * 0.78, face.key, look, tag)] : [];
    return [box(look.leading, items, containers, look.leading * 0.78)];
  }
  const inlines = rest.map((token) => tokenInline(token, NO_MARKS, null));
  const settings = {
    base: { font: look.font, size: look.size, color: look.color, features: 'code' as const },
    width: inner.width - indentWidth - hang,
    x: inner.x + indentWidth,
    leading: look.leading,
    align: 'start' as const,
    hyphenator: null,
    tag,
    preserveSpaces: true,
    marksContinuations: true,
  };
  const env = { fonts: context.fonts, palette: context.palette, tagger: context.tagger };
  const plain = plainLine(inlines, settings, env);
  const lines = plain ? [plain] : layoutParagraph(inlines, settings, env);
  return lines.map((line, index) => {
    const items = index === 0 ? [...line.items] : line.items.map((item) => translateItem(item, hang, 0));
    if (index === 0 && indent) items.unshift(run(indent.glyphs, inner.x + indentWidth - indent.width, line.baseline, face.key, look, tag));
    if (index > 0) items.push(continuationMark(inner.x + indentWidth + hang, line.baseline, look, context));
    return box(line.height, items, containers, line.baseline);
  });
}

function run(glyphs: GlyphRunItem['glyphs'], x: number, y: number, face: string, look: TextLook, tag: StructId | null): GlyphRunItem {
  return { kind: 'glyphs', x, y, face, size: look.size, color: look.color, glyphs, tag, actualText: null, perGlyphText: false };
}

/**
 * The hooked arrow (↪) before a wrapped line's continuation, drawn as a path: the code face has no
 * such glyph, and drawing it in a fallback font would embed a whole font for one mark. Page
 * furniture: untagged, nothing to extract.
 */
function continuationMark(x: number, baseline: number, look: TextLook, context: LayoutContext): PathItem {
  const em = look.size * 0.8;
  const right = x - 1.5;
  const left = right - em * 0.7;
  const top = baseline - em * 0.62;
  const line = baseline - em * 0.22;
  const head = em * 0.16;
  const d = `M ${left} ${top} Q ${left} ${line} ${left + em * 0.25} ${line} L ${right} ${line} M ${right - head} ${line - head} L ${right} ${line} L ${right - head} ${line + head}`;
  const stroke = { color: context.palette.muted, width: em * 0.075, opacity: 1, cap: 'round' as const, join: 'round' as const, dash: null };
  return { kind: 'path', d, matrix: IDENTITY, fill: null, fillOpacity: 1, fillRule: 'nonzero', stroke, tag: null };
}

/** The tokens with their first `count` characters removed (the indentation, drawn separately). */
function withoutPrefix(tokens: HighlightedLine, count: number): HighlightedLine {
  const out: HighlightedLine = [];
  let skip = count;
  for (const token of tokens) {
    if (skip >= token.text.length) {
      skip -= token.text.length;
      continue;
    }
    out.push({ ...token, text: token.text.slice(skip) });
    skip = 0;
  }
  return out;
}
