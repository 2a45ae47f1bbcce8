import { MermaidSyntaxError } from './syntax-error.js';
import type { MermaidSource } from './source.js';

export type MindmapShape = 'default' | 'square' | 'rounded' | 'circle' | 'bang' | 'cloud' | 'hexagon';

export interface MindmapNode {
  text: string;
  shape: MindmapShape;
  children: MindmapNode[];
}

/** Shapes by their brackets, tried in this order (double brackets before single ones). */
const SHAPES: Array<[MindmapShape, RegExp]> = [
  ['circle', /^([^\s[\](){}]*)\(\((.*)\)\)$/],
  ['bang', /^([^\s[\](){}]*)\)\)(.*)\(\($/],
  ['hexagon', /^([^\s[\](){}]*)\{\{(.*)\}\}$/],
  ['cloud', /^([^\s[\](){}]*)\)(.*)\($/],
  ['square', /^([^\s[\](){}]*)\[(.*)\]$/],
  ['rounded', /^([^\s[\](){}]*)\((.*)\)$/],
];

/** The tree written by indentation: each node a child of the nearest less indented one above it. */
export function parseMindmap(source: MermaidSource): MindmapNode {
  const stack: Array<{ indent: number; node: MindmapNode }> = [];
  let root: MindmapNode | null = null;
  for (const written of source.indented) {
    const text = written.trim();
    // Icons and classes style a node in a browser; a printed map keeps the words.
    if (/^::icon\(/.test(text) || /^:::/.test(text)) continue;
    const indent = written.length - written.trimStart().length;
    const node = readNode(text.replace(/:::[\w\s-]+$/, '').trim());
    while (stack.length > 0 && stack.at(-1)!.indent >= indent) stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.node.children.push(node);
    else if (root) throw new MermaidSyntaxError('a mindmap has one root; this node is not indented under it', text);
    else root = node;
    stack.push({ indent, node });
  }
  if (!root) throw new MermaidSyntaxError('a mindmap needs a root node');
  return root;
}

function readNode(text: string): MindmapNode {
  for (const [shape, pattern] of SHAPES) {
    const match = pattern.exec(text);
    if (match) return { text: cleanLabel(match[2]!), shape, children: [] };
  }
  return { text: cleanLabel(text), shape: 'default', children: [] };
}

/** Quotes and Markdown-string backticks and emphasis marks dropped: the words remain. */
function cleanLabel(text: string): string {
  let label = text.trim();
  const quoted = /^"(.*)"$/s.exec(label);
  if (quoted) label = quoted[1]!;
  const markdown = /^`(.*)`$/s.exec(label);
  if (markdown) label = markdown[1]!.replace(/\*\*|__|\*|_/g, '');
  return label.trim();
}
