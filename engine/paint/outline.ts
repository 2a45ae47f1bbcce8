import type { OutlineEntry } from '../layout/frame.js';
import { textString } from './pdf-values.js';
import type { DocumentInternals, PdfRef } from './pdfkit-internals.js';

interface OutlineNode {
  entry: OutlineEntry;
  children: OutlineNode[];
  ref: PdfRef;
}

/**
 * Bookmarks from headings, nested by level and pointing at named destinations (PDFKit's own
 * outline jumps to the page's right edge).
 */
export function writeOutline(doc: DocumentInternals, entries: readonly OutlineEntry[]): void {
  if (entries.length === 0) return;
  const root = doc.ref({ Type: 'Outlines' });
  const top: OutlineNode[] = [];
  const stack: OutlineNode[] = [];
  for (const entry of entries) {
    const node: OutlineNode = { entry, children: [], ref: doc.ref({ Title: textString(entry.title), Dest: textString(entry.dest) }) };
    while (stack.length > 0 && stack.at(-1)!.entry.level >= entry.level) stack.pop();
    (stack.length > 0 ? stack.at(-1)!.children : top).push(node);
    stack.push(node);
  }
  link(root, top);
  root.data.Count = top.length;
  root.end();
  doc._root.data.Outlines = root;
  doc._root.data.PageMode = 'UseOutlines';
}

function link(parent: PdfRef, nodes: OutlineNode[]): void {
  if (nodes.length === 0) return;
  parent.data.First = nodes[0]!.ref;
  parent.data.Last = nodes.at(-1)!.ref;
  nodes.forEach((node, index) => {
    const data = node.ref.data;
    data.Parent = parent;
    if (index > 0) data.Prev = nodes[index - 1]!.ref;
    if (index < nodes.length - 1) data.Next = nodes[index + 1]!.ref;
    link(node.ref, node.children);
    if (node.children.length > 0) data.Count = node.children.length;
    node.ref.end();
  });
}
