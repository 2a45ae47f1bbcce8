import type { Block, Inline } from '../../document/types.js';
import { METRICS } from '../../style/metrics.js';
import { box, INFINITE_COST, penalty, type BlockNodes, type BoxItem, type VBox, type VNode } from '../vertical.js';
import type { ImageResource } from '../../resources/image.js';
import { POINTS_PER_PIXEL } from '../inline/objects.js';
import { drawingItems } from '../drawing-items.js';
import { drawingTextSetter } from '../inline/paragraph.js';
import type { StructRole } from '../structure.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { textLines, type TextLook } from './text-block.js';

/** Sizes of the title block's lines against the body's: title, subtitle, authors, date. */
const SCALE = { title: 2.3, subtitle: 1.3, authors: 1.1, date: 1 } as const;
/** Space below the block before the document begins, in body lines. */
const SPACE_BELOW = 2;
/**
 * On a title page, the share of the free height above the block (the rest below): two to three,
 * the block's middle a little above the page's, on the optical centre where book title pages set
 * it (LaTeX's titlepage centres it). A cover picture makes the block taller and so higher.
 */
const TITLE_PAGE_SPACE_ABOVE = 0.4;
/** Most of the text block's height a cover picture takes: on a title page, and above running text. */
const COVER_SHARE_OWN_PAGE = 0.5;
const COVER_SHARE = 0.3;
const COVER_GAP = 24;

/**
 * The front matter's title block at the top of the first page, centred: the title (tagged H1, a
 * heading above the document's own), then subtitle, authors (one line, in order) and date, each
 * a paragraph. Its lines never part from each other or from what follows.
 */
export function layoutTitle(block: Block & { kind: 'title' }, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const { palette } = context;
  const look = (scale: number, weight: 'regular' | 'semibold', color = palette.text, family: 'serif' | 'heading' = 'serif'): TextLook => {
    const size = METRICS.bodySize * scale;
    return { font: { family, weight, italic: false }, size, leading: size * 1.25, color, align: 'center', hyphenate: false };
  };
  const parts: Array<{ content: Inline[] | null; look: TextLook; role: StructRole; space: number }> = [
    { content: block.title, look: look(SCALE.title, 'semibold', palette.heading, 'heading'), role: 'H1', space: 0 },
    { content: block.subtitle, look: look(SCALE.subtitle, 'regular', palette.muted), role: 'P', space: 4 },
    { content: block.authors, look: look(SCALE.authors, 'regular'), role: 'P', space: 14 },
    { content: block.date, look: look(SCALE.date, 'regular', palette.muted), role: 'P', space: 4 },
  ];
  const nodes: VNode[] = [];
  for (const part of parts) {
    if (part.content === null) continue;
    const lines = textLines(part.content, part.look, frame, context.tagger.add(part.role, frame.tag), context);
    if (nodes.length > 0 && part.space > 0) nodes.push(box(part.space, [], frame.containers));
    nodes.push(...lines);
  }
  if (block.cover) nodes.push(box(COVER_GAP, [], frame.containers), coverBox(block.cover, frame, context, block.ownPage ? COVER_SHARE_OWN_PAGE : COVER_SHARE));
  // On a page of its own the block stands on the optical centre, and the document starts on the next page.
  if (block.ownPage) {
    const height = nodes.reduce((sum, node) => sum + (node.kind === 'box' ? node.height : 0), 0);
    nodes.unshift(box(Math.max(0, context.geometry.contentHeight - height) * TITLE_PAGE_SPACE_ABOVE, [], frame.containers));
  }
  const first = nodes[0];
  if (block.id !== null && first?.kind === 'box') first.items.unshift({ kind: 'dest', name: block.id, x: frame.x, y: 0 });
  nodes.push(block.ownPage ? penalty(-INFINITE_COST, true) : penalty(INFINITE_COST));
  return { nodes, spaceBefore: 0, spaceAfter: METRICS.bodyLeading * SPACE_BELOW };
}

/**
 * The cover picture, centred and shrunk to the measure and its share of the page. Decoration of
 * the title page, so an artifact: the title beside it says what the document is.
 */
function coverBox(image: ImageResource, frame: BlockFrame, context: LayoutContext, share: number): VBox {
  if (image.kind === 'failed') return box(0, [], frame.containers);
  const [naturalWidth, naturalHeight] =
    image.kind === 'raster'
      ? [image.width * POINTS_PER_PIXEL, image.height * POINTS_PER_PIXEL]
      : [image.drawing.width * image.drawing.unit, image.drawing.height * image.drawing.unit];
  const fit = Math.min(frame.width / naturalWidth, (context.geometry.contentHeight * share) / naturalHeight);
  const width = naturalWidth * fit;
  const height = naturalHeight * fit;
  const x = frame.x + (frame.width - width) / 2;
  const items: BoxItem[] =
    image.kind === 'raster'
      ? [{ kind: 'image', x, y: 0, width, height, image, tag: null }]
      : drawingItems(image.drawing, { x, y: 0, scale: image.drawing.unit * fit, tag: null }, drawingTextSetter(context));
  return box(height, items, frame.containers);
}
