import type { Element } from 'domhandler';
import { DomUtils } from 'htmlparser2';
import { RendererBoundError } from '../../errors.js';
import type { RendererBounds } from '../../options.js';
import type { ImageResource } from '../../resources/image.js';
import { IDENTITY } from '../../drawing/matrix.js';
import type { Drawing } from '../../drawing/drawing.js';
import { parseSvg, svgToDrawing } from '../svg/parse-svg.js';
import { rasterSize } from './raster-size.js';
import { loadResvg, resvgOptions } from './resvg.js';
import { pixelsForWork, tameEffects } from './svg-effects.js';
import { svgForResvg } from './svg-for-resvg.js';
import { keepSafeLinks } from './svg-links.js';
import { svgRoute } from './svg-features.js';

/**
 * resvg turns text into outlines at about 75 µs a character (measured: 266,000 characters took
 * 20 s in native code, which no deadline interrupts). SVG with more text than this is drawn
 * directly, its text as text, without the effects only resvg draws.
 */
const RESVG_TEXT_CHARACTERS = 10_000;

/**
 * An SVG image: drawn as vectors by Quire's converter when it can carry everything the SVG
 * uses; through resvg's simplified SVG for markers and the like; as a raster made by resvg for
 * filters, masks, patterns and clipping. One canonical tree serves every reader; its links are
 * made safe and the converter runs first — it refuses entities and bounds the work, nesting and
 * `<use>` expansion — before resvg sees anything.
 */
export async function svgImage(id: string, text: string, bounds: RendererBounds): Promise<ImageResource> {
  const options = { maxDepth: bounds.maxDepth, imageBounds: bounds };
  const svg = parseSvg(text, options);
  await keepSafeLinks(svg, bounds);
  const drawing = svgToDrawing(svg, options);
  const { document, elements, ids, root } = svg;
  const route = svgRoute(elements, ids, root);
  const characters = textCharacters(elements);
  if (route === 'direct' || characters > RESVG_TEXT_CHARACTERS) return { kind: 'vector', id, drawing };
  const { Resvg } = await loadResvg();
  const fonts = characters > 0;
  try {
    if (route === 'normalise') {
      const simplified = new Resvg(svgForResvg(svg), resvgOptions({ mode: 'original' }, fonts)).toString();
      return { kind: 'vector', id, drawing: svgToDrawing(simplified, options) };
    }
    const widthPt = drawing.width * drawing.unit;
    const heightPt = drawing.height * drawing.unit;
    const work = tameEffects(document, elements, ids, rasterSize(widthPt, heightPt, Number.POSITIVE_INFINITY, bounds).width / drawing.width);
    const pixels = rasterSize(widthPt, heightPt, pixelsForWork(work), bounds);
    const sized = svgForResvg(svg, { ...pixels, viewBox: root.attribs.viewBox ?? `0 0 ${drawing.width} ${drawing.height}` });
    const png = new Resvg(sized, resvgOptions({ mode: 'original' }, fonts)).render().asPng();
    return { kind: 'vector', id, drawing: rasterDrawing(drawing, { kind: 'raster', id: `${id}-raster`, format: 'png', bytes: png, ...pixels }) };
  } catch (error) {
    // resvg's XML reader is stricter than the converter's: what it cannot read is drawn directly.
    if (error instanceof Error && !(error instanceof RendererBoundError)) return { kind: 'vector', id, drawing };
    throw error;
  }
}

/** Characters of text resvg would shape: those inside each outermost `<text>`. */
function textCharacters(elements: readonly Element[]): number {
  let total = 0;
  for (const element of elements) {
    if (element.name !== 'text') continue;
    let ancestor = element.parent;
    while (ancestor && !('name' in ancestor && ancestor.name === 'text')) ancestor = ancestor.parent;
    if (!ancestor) total += DomUtils.textContent(element).length;
  }
  return total;
}

/** The raster in a drawing of the vector drawing's size, so it is placed exactly as the vectors would be. */
function rasterDrawing(vector: Drawing, image: ImageResource & { kind: 'raster' }): Drawing {
  return {
    width: vector.width,
    height: vector.height,
    unit: vector.unit,
    baseline: vector.baseline,
    items: [{ kind: 'image', image, x: 0, y: 0, width: vector.width, height: vector.height, transform: IDENTITY }],
  };
}
