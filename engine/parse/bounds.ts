import type { Root } from 'mdast';
import { RendererBoundError } from '../errors.js';
import type { RendererBounds } from '../options.js';

const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const FENCE = /^(`{3,}|~{3,})/;
const MAY_START_LIST_MARKER = /[-+*0-9]/;

/**
 * The Markdown parser recurses once per container level, so nesting is measured on the raw
 * lines before parsing: block quote markers, list markers and the indentation of nested list
 * items. Lines inside fenced code are skipped (their indentation is content).
 */
export function checkSourceDepth(markdown: string, maxDepth: number): void {
  let fence: string | null = null;
  let start = 0;
  while (start <= markdown.length) {
    let end = markdown.indexOf('\n', start);
    if (end === -1) end = markdown.length;
    const depth = lineDepth(markdown, start, end);
    if (depth.level > maxDepth) {
      throw new RendererBoundError('DepthLimit', `nesting deeper than ${maxDepth} levels`);
    }
    const first = markdown[depth.contentStart];
    const marker = first === '`' || first === '~' ? FENCE.exec(markdown.slice(depth.contentStart, Math.min(end, depth.contentStart + 8)))?.[1] : undefined;
    if (marker) {
      if (fence === null) fence = marker[0]!;
      else if (marker[0] === fence) fence = null;
    }
    start = end + 1;
  }
}

function lineDepth(text: string, start: number, end: number): { level: number; contentStart: number } {
  let level = 0;
  let i = start;
  let columns = 0;
  for (;;) {
    while (i < end && (text[i] === ' ' || text[i] === '\t')) {
      columns += text[i] === '\t' ? 4 : 1;
      i++;
    }
    if (text[i] === '>') {
      level++;
      i++;
      continue;
    }
    // Most lines start with a letter: no slice and no match for them (every line of every render passes here).
    const marker = i < end && MAY_START_LIST_MARKER.test(text[i]!) ? LIST_MARKER.exec(text.slice(i, Math.min(end, i + 12))) : null;
    if (marker) {
      level += 1 + Math.floor(columns / 2);
      columns = 0;
      i += marker[0].length;
      continue;
    }
    return { level, contentStart: i };
  }
}

/** Counts nodes and measures depth without recursion, before anything walks the tree recursively. */
export function checkTreeBounds(tree: Root, bounds: RendererBounds): void {
  const maxTreeDepth = bounds.maxDepth * 3;
  const stack: Array<{ node: { children?: unknown[] }; depth: number }> = [{ node: tree, depth: 0 }];
  let count = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (++count > bounds.maxElements) {
      throw new RendererBoundError('ElementLimit', `more than ${bounds.maxElements} elements`);
    }
    if (depth > maxTreeDepth) {
      throw new RendererBoundError('DepthLimit', `nesting deeper than ${bounds.maxDepth} levels`);
    }
    for (const child of node.children ?? []) stack.push({ node: child as { children?: unknown[] }, depth: depth + 1 });
  }
}
