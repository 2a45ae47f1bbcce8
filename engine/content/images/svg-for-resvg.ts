import { DomUtils } from 'htmlparser2';
import type { Element } from 'domhandler';
import type { RendererBounds } from '../../options.js';
import { decodeDataUri } from '../../resources/data-uri.js';
import { checkImageBounds } from '../../resources/image.js';
import { readImageHeader } from './header.js';

/** Embedded image kinds resvg decodes (it cannot read WebP). */
const RESVG_IMAGES = new Set(['png', 'jpeg', 'gif']);

/**
 * The SVG as resvg may see it. resvg reads any file path an `href` names and has no memory
 * limits, so: references stay only within the document (`#id`) or to embedded images whose
 * headers pass the image bounds; every other href is removed; scripts go. `size`, when given,
 * sets the root's pixel size (keeping its viewBox), which is the canvas resvg allocates.
 */
export function svgForResvg(elements: readonly Element[], root: Element, bounds: RendererBounds, size?: { width: number; height: number; viewBox: string }): string {
  for (const element of elements) {
    if (element.name === 'script' || element.name === 'foreignObject') {
      DomUtils.removeElement(element);
      continue;
    }
    for (const name of ['href', 'xlink:href']) {
      const href = element.attribs[name];
      if (href === undefined || href.startsWith('#')) continue;
      if (!embeddedImage(href, bounds)) delete element.attribs[name];
    }
  }
  if (size) {
    root.attribs.width = String(size.width);
    root.attribs.height = String(size.height);
    root.attribs.viewBox = size.viewBox;
    root.attribs.preserveAspectRatio = 'none';
  }
  return DomUtils.getOuterHTML(root, { xmlMode: true });
}

function embeddedImage(href: string, bounds: RendererBounds): boolean {
  if (!href.startsWith('data:')) return false;
  let bytes: Uint8Array;
  try {
    bytes = decodeDataUri(href).bytes;
  } catch {
    return false;
  }
  const header = readImageHeader(bytes);
  if (!header || !RESVG_IMAGES.has(header.format)) return false;
  checkImageBounds(header, bounds);
  return true;
}
