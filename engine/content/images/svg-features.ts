import type { Element } from 'domhandler';
import { numbers } from '../svg/geometry.js';

/**
 * How an SVG can be drawn: `direct` by Quire's converter (vectors, text kept as text);
 * `normalise` through resvg's simplified SVG first (markers, switch, text on a path: resvg
 * turns them into plain paths); `raster` when vectors cannot carry it (filters, masks,
 * patterns, clipping, embedded images of other kinds).
 */
export type SvgRoute = 'direct' | 'normalise' | 'raster';

const URL_REFERENCE = /url\(\s*['"]?#([^'")\s]+)['"]?\s*\)/g;
const FILTER_FUNCTION = /(?:^|[;{\s])filter\s*:\s*(?!none\b)[a-z-]+\(/i;
const DRAWN_IMAGES = /^data:image\/(png|jpe?g);/i;

export function svgRoute(elements: readonly Element[], ids: ReadonlyMap<string, Element>, root: Element): SvgRoute {
  const referenced = new Set<Element>();
  let cssFilter = false;
  let foreignImage = false;
  for (const element of elements) {
    const text = element.name === 'style' ? styleText(element) : Object.values(element.attribs).join(' ');
    for (const match of text.matchAll(URL_REFERENCE)) {
      const target = ids.get(match[1]!);
      if (target) referenced.add(target);
    }
    if (FILTER_FUNCTION.test(element.name === 'style' ? text : `;${element.attribs.style ?? ''}`)) cssFilter = true;
    if (element.name === 'image') {
      const href = element.attribs.href ?? element.attribs['xlink:href'] ?? '';
      if (href.startsWith('data:') && !DRAWN_IMAGES.test(href)) foreignImage = true;
    }
  }
  const kinds = new Set([...referenced].filter((target) => target.name !== 'clipPath' || !coversViewport(target, root)).map((target) => target.name));
  if (cssFilter || foreignImage || ['filter', 'mask', 'pattern', 'clipPath'].some((kind) => kinds.has(kind))) return 'raster';
  if (kinds.has('marker') || elements.some((element) => element.name === 'switch' || element.name === 'textPath')) return 'normalise';
  return 'direct';
}

function styleText(element: Element): string {
  return element.children.map((child) => ('data' in child ? child.data : '')).join('');
}

/**
 * A clip path that is one rectangle as large as the whole picture clips nothing (badges and
 * exported icons wrap everything in one); drawing without it only loses rounded corners.
 */
function coversViewport(clip: Element, root: Element): boolean {
  const shapes = clip.children.filter((child): child is Element => child.type === 'tag');
  const rect = shapes[0];
  if (shapes.length !== 1 || rect?.name !== 'rect' || rect.attribs.transform || clip.attribs.transform) return false;
  const [minX, minY, width, height] = viewport(root);
  const n = (key: string) => Number.parseFloat(rect.attribs[key] ?? '0') || 0;
  const slack = 0.5;
  return n('x') <= minX + slack && n('y') <= minY + slack && n('x') + n('width') >= minX + width - slack && n('y') + n('height') >= minY + height - slack;
}

function viewport(root: Element): [number, number, number, number] {
  const viewBox = numbers(root.attribs.viewBox);
  if (viewBox.length === 4) return viewBox as [number, number, number, number];
  return [0, 0, Number.parseFloat(root.attribs.width ?? '') || 300, Number.parseFloat(root.attribs.height ?? '') || 150];
}
