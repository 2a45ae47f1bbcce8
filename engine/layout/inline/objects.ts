import type { Drawing } from '../../drawing/drawing.js';
import type { DrawingRole } from '../../document/types.js';
import type { ImageResource } from '../../resources/image.js';
import type { FontLibrary } from '../../text/font-library.js';
import { drawingItems, type DrawingTextSetter } from '../drawing-items.js';
import type { FrameItem } from '../frame.js';
import { METRICS } from '../../style/metrics.js';
import type { Palette } from '../../style/palette.js';
import type { RunStyle } from './run-style.js';

/** Something set in a line like a character: an image, a formula, an emoji. */
export type InlineObject = { kind: 'image'; image: ImageResource; alt: string } | { kind: 'drawing'; drawing: Drawing; role: DrawingRole; alt: string };

/** An object's box on the line: its width, how far it rises above the baseline and drops below. */
export interface ObjectBox {
  width: number;
  ascent: number;
  descent: number;
  /** Points per drawing unit, for vector objects. */
  scale: number;
}

/** CSS pixels are 1/96 inch; points are 1/72. */
export const POINTS_PER_PIXEL = 0.75;
/** An emoji is as tall as the em square of the text around it. */
const EMOJI_EM = 1.1;

export function measureObject(object: InlineObject, style: RunStyle, lineWidth: number, fonts: FontLibrary): ObjectBox {
  if (object.kind === 'image') {
    const image = object.image;
    if (image.kind === 'failed') {
      const label = placeholderLabel(object.alt, style, fonts);
      return { width: Math.min(lineWidth, label.width + 2 * PLACEHOLDER_PADDING), ascent: style.size * 0.95, descent: style.size * 0.3, scale: 1 };
    }
    const [naturalWidth, naturalHeight, scale] =
      image.kind === 'raster'
        ? [image.width * POINTS_PER_PIXEL, image.height * POINTS_PER_PIXEL, 1]
        : [image.drawing.width * image.drawing.unit, image.drawing.height * image.drawing.unit, image.drawing.unit];
    const shrink = Math.min(1, lineWidth / naturalWidth);
    return { width: naturalWidth * shrink, ascent: naturalHeight * shrink, descent: 0, scale: scale * shrink };
  }
  const drawing = object.drawing;
  const scale = object.role.kind === 'text' ? (style.size * EMOJI_EM) / drawing.height : drawing.unit * (style.size / METRICS.bodySize);
  const fit = Math.min(1, lineWidth / (drawing.width * scale));
  const width = drawing.width * scale * fit;
  const columns = object.role.kind === 'text' && style.features === 'code' ? EMOJI_COLUMNS * columnWidth(style, fonts) : 0;
  return {
    width: Math.max(width, Math.min(columns, lineWidth)),
    ascent: drawing.baseline * scale * fit,
    descent: (drawing.height - drawing.baseline) * scale * fit,
    scale: scale * fit,
  };
}

/** In code an emoji takes two columns, as in a terminal, so the columns after it stay aligned. */
export const EMOJI_COLUMNS = 2;

function columnWidth(style: RunStyle, fonts: FontLibrary): number {
  const face = fonts.primary(style.font);
  return face.shape('0', 'ltr', 'code').advance * face.scale(style.size);
}

export interface ObjectEnv {
  fonts: FontLibrary;
  palette: Palette;
  setDrawingText: DrawingTextSetter;
}

/** Frame items for an object whose box starts at `x` on the line's baseline. */
export function drawObject(object: InlineObject, box: ObjectBox, x: number, baseline: number, style: RunStyle, env: ObjectEnv): FrameItem[] {
  const top = baseline - box.ascent;
  const height = box.ascent + box.descent;
  if (object.kind === 'image') {
    const image = object.image;
    if (image.kind === 'raster') return [{ kind: 'image', x, y: top, width: box.width, height, image, tag: style.tag }];
    if (image.kind === 'vector') return drawingItems(image.drawing, { x, y: top, scale: box.scale, tag: style.tag }, env.setDrawingText);
    const label = placeholderLabel(object.alt, style, env.fonts);
    return [
      { kind: 'rect', x, y: top, width: box.width, height, fill: null, stroke: env.palette.rule, lineWidth: 0.6, radius: 2, tag: null, actualText: null },
      {
        kind: 'glyphs',
        x: x + PLACEHOLDER_PADDING,
        y: baseline,
        face: label.face,
        size: label.size,
        color: env.palette.muted,
        glyphs: label.glyphs,
        tag: style.tag,
        actualText: null,
        perGlyphText: false,
      },
    ];
  }
  // Centred in its box, which may be wider than the drawing (an emoji's two columns in code).
  const inset = (box.width - object.drawing.width * box.scale) / 2;
  const items = drawingItems(object.drawing, { x: x + inset, y: top, scale: box.scale, tag: style.tag }, env.setDrawingText);
  if (object.role.kind === 'text') items.push(textCarrier(object.role.text, box.width, x, baseline, style, env));
  return items;
}

const PLACEHOLDER_PADDING = 3;

/** An image that could not be loaded is shown as its alternative text in a thin box. */
function placeholderLabel(alt: string, style: RunStyle, fonts: FontLibrary) {
  const size = style.size * 0.8;
  const face = fonts.primary({ ...style.font, italic: true });
  const shaped = face.shape(alt.trim() || 'image');
  const scale = face.scale(size);
  const glyphs = shaped.glyphs.map((glyph) => ({
    id: glyph.id,
    advance: glyph.advance * scale,
    dx: glyph.dx * scale,
    dy: glyph.dy * scale,
    chars: glyph.chars,
  }));
  return { face: face.key, size, glyphs, width: shaped.advance * scale };
}

/**
 * A picture of text (an emoji) is painted as vectors; invisible glyphs under it carry its
 * characters, so the PDF's text still has them. They are em spaces, as many as fill the picture
 * and sized so their own advances do: a space stretched by kerning leaves extractors (pdftotext)
 * a gap they read as a word or column break.
 */
function textCarrier(text: string, width: number, x: number, baseline: number, style: RunStyle, env: ObjectEnv): FrameItem {
  const face = env.fonts.primary(style.font);
  const emSpace = face.font.glyphForCodePoint(0x2003);
  const [glyph, chars] = emSpace.id !== 0 ? [emSpace, '\u2003'] : [face.font.glyphForCodePoint(0x20), ' '];
  const count = Math.max(1, Math.round(width / (glyph.advanceWidth * face.scale(style.size))));
  const size = width / count / face.scale(1) / glyph.advanceWidth;
  return {
    kind: 'glyphs',
    x,
    y: baseline,
    face: face.key,
    size,
    color: style.color,
    glyphs: Array.from({ length: count }, () => ({ id: glyph.id, advance: width / count, dx: 0, dy: 0, chars })),
    tag: style.tag,
    actualText: text,
    perGlyphText: false,
    invisible: true,
  };
}
