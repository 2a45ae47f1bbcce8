import type { Inline } from '../../document/types.js';
import type { LaidLine } from '../inline/line-items.js';
import { layoutParagraph, measureParagraph, type ParagraphEnv, type ParagraphMeasure, type ParagraphSettings } from '../inline/paragraph.js';
import type { StructId } from '../structure.js';
import { box, type VBox } from '../vertical.js';
import { untagged, type BlockFrame, type LayoutContext } from './context.js';
import type { TextLook } from './text-look.js';

export type { TextLook } from './text-look.js';

/** Inline content → one box per line, in the frame's column. */
export function textLines(inlines: readonly Inline[], look: TextLook, frame: BlockFrame, tag: StructId | null, context: LayoutContext): VBox[] {
  return paragraphLines(inlines, look, frame.x, frame.width, tag, context).map((line) => lineBox(line, frame));
}

/** The narrowest (longest word or hyphenated fragment) and widest (one line) the content can be set, tagging nothing. */
export function measureText(inlines: readonly Inline[], look: TextLook, context: LayoutContext): ParagraphMeasure {
  return measureParagraph(inlines, paragraphSettings(look, 0, 100_000, null, context), paragraphEnv(untagged(context)));
}

function paragraphLines(inlines: readonly Inline[], look: TextLook, x: number, width: number, tag: StructId | null, context: LayoutContext): LaidLine[] {
  return layoutParagraph(inlines, paragraphSettings(look, x, width, tag, context), paragraphEnv(context));
}

function paragraphSettings(look: TextLook, x: number, width: number, tag: StructId | null, context: LayoutContext): ParagraphSettings {
  return {
    base: { font: look.font, size: look.size, color: look.color, features: look.features ?? 'text' },
    width,
    x,
    leading: look.leading,
    align: look.align ?? (context.justify ? 'justify' : 'start'),
    hyphenator: look.hyphenate === false ? null : context.hyphenator,
    tag,
  };
}

function paragraphEnv(context: LayoutContext): ParagraphEnv {
  return { fonts: context.fonts, palette: context.palette, tagger: context.tagger };
}

export function lineBox(line: LaidLine, frame: BlockFrame): VBox {
  return box(line.height, line.items, frame.containers, line.baseline, line.footnotes, line.hyphenated);
}
