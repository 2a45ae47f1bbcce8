import { NO_MARKS, type Block } from '../../document/types.js';
import { shiftBoxItem, stackBoxes } from '../box-items.js';
import { METRICS } from '../../style/metrics.js';
import { box, figureNodes, type BlockNodes, type BoxItem, type VBox } from '../vertical.js';
import { mayFloat, type BlockFrame, type LayoutContext } from './context.js';
import { POINTS_PER_PIXEL } from '../inline/objects.js';
import { drawingItems } from '../drawing-items.js';
import { drawingTextSetter } from '../inline/paragraph.js';
import { smallLook } from './looks.js';
import { MAX_PAGE_SHARE } from './drawing.js';
import { textLines } from './text-block.js';

const PLACEHOLDER_HEIGHT = 56;

/** An image on its own line: centred, shrunk to the measure and the page, caption below. */
export function layoutFigure(block: Block & { kind: 'figure' }, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const linkTag = block.link ? context.tagger.add('Link', frame.tag) : null;
  const figureTag = context.tagger.add('Figure', linkTag ?? frame.tag, { alt: block.alt || block.caption || 'image' });
  const maxHeight = context.geometry.contentHeight * MAX_PAGE_SHARE;
  const items: BoxItem[] = [];
  let height: number;
  const image = block.image;
  if (image.kind !== 'failed') {
    const [naturalWidth, naturalHeight] =
      image.kind === 'raster'
        ? [image.width * POINTS_PER_PIXEL, image.height * POINTS_PER_PIXEL]
        : [image.drawing.width * image.drawing.unit, image.drawing.height * image.drawing.unit];
    const fit = Math.min(1, frame.width / naturalWidth, maxHeight / naturalHeight);
    const width = naturalWidth * fit;
    height = naturalHeight * fit;
    const x = frame.x + (frame.width - width) / 2;
    if (image.kind === 'raster') items.push({ kind: 'image', x, y: 0, width, height, image, tag: figureTag });
    else items.push(...drawingItems(image.drawing, { x, y: 0, scale: image.drawing.unit * fit, tag: figureTag }, drawingTextSetter(context)));
    if (block.link) items.push({ kind: 'link', x, y: 0, width, height, target: block.link.target, description: block.link.description, tag: linkTag });
  } else {
    height = PLACEHOLDER_HEIGHT;
    items.push({
      kind: 'rect',
      x: frame.x,
      y: 0,
      width: frame.width,
      height,
      fill: null,
      stroke: context.palette.muted,
      lineWidth: 0.6,
      radius: 2,
      tag: null,
      actualText: null,
    });
    const message = `Image unavailable${block.alt ? `: ${block.alt}` : ''}`;
    const lines = textLines(
      [{ kind: 'text', text: message, marks: { ...NO_MARKS, italic: true }, link: null, code: null }],
      { ...smallLook(context.palette), align: 'center' },
      { ...frame, x: frame.x + 8, width: frame.width - 16 },
      figureTag,
      context,
    );
    const note = stackBoxes(lines);
    items.push(...note.items.map((item) => shiftBoxItem(item, (height - note.height) / 2)));
  }
  const boxes: VBox[] = [box(height, items, frame.containers)];
  if (block.caption) {
    const captionTag = context.tagger.add('Caption', frame.tag);
    const caption = textLines(
      [{ kind: 'text', text: block.caption, marks: NO_MARKS, link: null, code: null }],
      { ...smallLook(context.palette), align: 'center' },
      frame,
      captionTag,
      context,
    );
    // Consecutive boxes never part: the caption stays with its image.
    boxes.push(box(4, [], frame.containers), ...caption);
  }
  return { nodes: figureNodes(boxes, mayFloat(frame)), spaceBefore: METRICS.paragraphGap * 1.5, spaceAfter: METRICS.paragraphGap * 1.5 };
}
