import type { Element } from 'domhandler';
import type { Theme } from '../../style/theme.js';
import type { ImageResource } from '../../resources/image.js';
import { declarationList } from './css.js';

/** Percentages of width refer to a column about as wide as an A4 page's measure, in CSS pixels. */
const MEASURE_PX = 630;

/**
 * The address an `<img>` (or a `<picture>`) names: in a picture, the first `<source>` whose
 * media query asks for the document's colour scheme (READMEs offer light and dark logos), else
 * the `<img>`.
 */
export function imageSource(element: Element, theme: Theme): { src: string; img: Element } | null {
  if (element.name === 'img') return element.attribs.src ? { src: element.attribs.src, img: element } : null;
  const children = element.children.filter((child): child is Element => child.type === 'tag');
  const img = children.find((child) => child.name === 'img');
  if (!img) return null;
  const scheme = new RegExp(`prefers-color-scheme\\s*:\\s*${theme}`, 'i');
  const source = children.find((child) => child.name === 'source' && scheme.test(child.attribs.media ?? '') && child.attribs.srcset);
  const src = source ? source.attribs.srcset!.trim().split(/\s+/)[0]! : img.attribs.src;
  return src ? { src, img } : null;
}

/**
 * The image at the size its `width` and `height` (attributes or CSS, in pixels or percent) ask
 * for; one of them keeps the proportions. The size is written where layout reads an image's
 * size in CSS pixels: a raster's pixel size, a drawing's points per unit.
 */
export function sizedImage(image: ImageResource, img: Element): ImageResource {
  if (image.kind === 'failed') return image;
  const css = new Map(declarationList(img.attribs.style ?? ''));
  const width = pixels(css.get('width') ?? img.attribs.width);
  const height = pixels(css.get('height') ?? img.attribs.height);
  if (width === null && height === null) return image;
  const [naturalWidth, naturalHeight] =
    image.kind === 'raster'
      ? [image.width, image.height]
      : [(image.drawing.width * image.drawing.unit) / 0.75, (image.drawing.height * image.drawing.unit) / 0.75];
  const w = width ?? (height! * naturalWidth) / naturalHeight;
  const h = height ?? (width! * naturalHeight) / naturalWidth;
  if (image.kind === 'raster') return { ...image, width: w, height: h };
  const drawing = image.drawing;
  // A drawing keeps its proportions: it fits the asked box.
  const unit = Math.min((w * 0.75) / drawing.width, (h * 0.75) / drawing.height);
  return { ...image, drawing: { ...drawing, unit } };
}

function pixels(value: string | undefined): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(px|%)?\s*$/i.exec(value ?? '');
  if (!match) return null;
  const number = Number(match[1]);
  const result = match[2] === '%' ? (number / 100) * MEASURE_PX : number;
  return result > 0 ? result : null;
}
