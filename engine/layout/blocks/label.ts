import { NO_MARKS } from '../../document/types.js';
import { translateItem, type FrameItem } from '../frame.js';
import { layoutParagraph } from '../inline/paragraph.js';
import type { StructId } from '../structure.js';
import type { LayoutContext } from './context.js';
import type { TextLook } from './text-block.js';

/**
 * A short single-line text (a list number, a bullet, a page number) whose right edge is at
 * `right` and whose baseline is at `baseline`. Goes through the same shaping and font fallback
 * as running text.
 */
export function labelItems(text: string, look: TextLook, right: number, baseline: number, tag: StructId | null, context: LayoutContext): FrameItem[] {
  return placedLabel(text, look, { x: right, align: 'right' }, baseline, tag, context);
}

/** A single-line text whose left edge, centre or right edge is at `x`. */
export function placedLabel(
  text: string,
  look: TextLook,
  at: { x: number; align: 'left' | 'center' | 'right' },
  baseline: number,
  tag: StructId | null,
  context: LayoutContext,
): FrameItem[] {
  const line = labelLine(text, look, tag, context);
  if (!line) return [];
  const dx = at.align === 'left' ? at.x : at.align === 'center' ? at.x - line.width / 2 : at.x - line.width;
  const dy = baseline - line.baseline;
  return line.items.map((item) => translateItem(item, dx, dy));
}

/** How wide a single-line text is set. */
export function labelWidth(text: string, look: TextLook, context: LayoutContext): number {
  return labelLine(text, look, null, context)?.width ?? 0;
}

function labelLine(text: string, look: TextLook, tag: StructId | null, context: LayoutContext) {
  const [line] = layoutParagraph(
    [{ kind: 'text', text, marks: NO_MARKS, link: null, code: null }],
    {
      base: { font: look.font, size: look.size, color: look.color, features: look.features ?? 'text' },
      width: 10_000,
      x: 0,
      leading: look.leading,
      align: 'start',
      hyphenator: null,
      tag,
      preserveSpaces: true,
    },
    { fonts: context.fonts, palette: context.palette, tagger: context.tagger },
  );
  return line;
}
