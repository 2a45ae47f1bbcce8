import type { ChildNode, Element } from 'domhandler';
import { RendererBoundError } from '../../errors.js';

export interface ExpansionLimits {
  maxElements: number;
  maxDepth: number;
}

/**
 * Bounds an SVG before anything draws it: the number of elements once every `<use>` is
 * expanded (wherever it is: in `<defs>`, markers, patterns or masks, which a renderer expands
 * too), and the nesting depth counting `<use>` hops. A `<use>` that refers to itself, directly
 * or through others, is refused. Memoised, so a billion-laughs chain costs one pass.
 */
export function checkExpansion(nodes: readonly ChildNode[], ids: ReadonlyMap<string, Element>, limits: ExpansionLimits): void {
  const sizes = new Map<Element, number>();
  const expanding = new Set<Element>();

  const size = (element: Element, depth: number): number => {
    if (depth > limits.maxDepth) throw new RendererBoundError('DepthLimit', `SVG nested deeper than ${limits.maxDepth} levels`);
    const known = sizes.get(element);
    if (known !== undefined) return known;
    if (expanding.has(element)) throw new RendererBoundError('DepthLimit', 'an SVG <use> refers to itself');
    expanding.add(element);
    let total = 1;
    for (const child of element.children) {
      if (child.type === 'tag') total += size(child, depth + 1);
      if (total > limits.maxElements) break;
    }
    const target = element.name === 'use' ? referenced(element, ids) : null;
    if (target) total += size(target, depth + 1);
    expanding.delete(element);
    if (total > limits.maxElements) throw new RendererBoundError('SvgWorkLimit', `SVG expands to more than ${limits.maxElements} elements`);
    sizes.set(element, total);
    return total;
  };

  let total = 0;
  for (const node of nodes) {
    if (node.type === 'tag') total += size(node, 1);
    if (total > limits.maxElements) throw new RendererBoundError('SvgWorkLimit', `SVG expands to more than ${limits.maxElements} elements`);
  }
}

function referenced(use: Element, ids: ReadonlyMap<string, Element>): Element | null {
  const href = use.attribs.href ?? use.attribs['xlink:href'];
  return href?.startsWith('#') ? (ids.get(href.slice(1)) ?? null) : null;
}
