import type { Element } from 'domhandler';
import type { RendererBounds } from '../../options.js';
import { decodeDataUri, isDataUri } from '../../resources/data-uri.js';
import { ResourceLoadError } from '../../resources/loader.js';
import type { ParsedSvg } from '../svg/parse-svg.js';
import { checkRaster } from './raster-check.js';

/** After canonicalizeSvg, the only attributes that hold links. */
const LINK_ATTRIBUTES = ['href', 'xlink:href'];
/** Elements whose link may be an embedded picture. */
const PICTURES = new Set(['image', 'feImage']);
/** Embedded image kinds resvg decodes (it cannot read WebP). */
const RESVG_IMAGES = new Set(['png', 'jpeg', 'gif']);

/**
 * Leaves an SVG only links that read nothing outside it. resvg resolves links by itself and
 * reads any file path one names — `/dev/zero` or a FIFO without end, in native code — so each
 * link is kept only as: a reference to an element the SVG has (`#id`; never on `<image>`,
 * which would take it for a file name), or on `<image>` and `<feImage>` an embedded PNG, JPEG
 * or GIF that passes checkRaster, rewritten as the Base64 of exactly the bytes checked (no two
 * readers can decode the URI differently). Every other link is removed, and the picture drawn
 * without it.
 */
export async function keepSafeLinks({ elements, ids }: ParsedSvg, bounds: RendererBounds): Promise<void> {
  for (const element of elements) {
    for (const name of LINK_ATTRIBUTES) {
      const href = element.attribs[name];
      if (href === undefined) continue;
      const safe = await safeLink(element, href, ids, bounds);
      if (safe === null) delete element.attribs[name];
      else element.attribs[name] = safe;
    }
  }
}

async function safeLink(element: Element, href: string, ids: ReadonlyMap<string, Element>, bounds: RendererBounds): Promise<string | null> {
  if (href.startsWith('#')) return element.name !== 'image' && ids.has(href.slice(1)) ? href : null;
  if (!PICTURES.has(element.name) || !isDataUri(href)) return null;
  try {
    const { bytes } = decodeDataUri(href);
    const { format } = await checkRaster(bytes, bounds);
    return RESVG_IMAGES.has(format) ? `data:image/${format};base64,${Buffer.from(bytes).toString('base64')}` : null;
  } catch (error) {
    if (error instanceof ResourceLoadError) return null;
    throw error;
  }
}
