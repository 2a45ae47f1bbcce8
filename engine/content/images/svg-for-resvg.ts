import { DomUtils } from 'htmlparser2';
import { SVG_NAMESPACE, XLINK_NAMESPACE } from '../svg/canonical.js';
import type { ParsedSvg } from '../svg/parse-svg.js';

/**
 * The canonical SVG as resvg reads it, once keepSafeLinks has run: the namespaces declared on
 * the root exactly as the tree was resolved. `size`, when given, sets the root's pixel size
 * (keeping its viewBox), which is the canvas resvg allocates.
 */
export function svgForResvg({ root }: ParsedSvg, size?: { width: number; height: number; viewBox: string }): string {
  root.attribs = { ...root.attribs, xmlns: SVG_NAMESPACE, 'xmlns:xlink': XLINK_NAMESPACE };
  if (size) {
    root.attribs.width = String(size.width);
    root.attribs.height = String(size.height);
    root.attribs.viewBox = size.viewBox;
    root.attribs.preserveAspectRatio = 'none';
  }
  return DomUtils.getOuterHTML(root, { xmlMode: true });
}
