import type { Nodes, Root } from 'mdast';

/** Nodes whose text is code, math or markup: never touched. */
const VERBATIM = new Set(['inlineCode', 'code', 'inlineMath', 'math', 'html', 'yaml']);
const OPENS_QUOTE_AFTER = /[\s([{\u2014\u2013-]/u;

/**
 * Straight quotes, dashes and ellipses become typographic forms, in text only: never inside
 * code, math, HTML or a URL written as its own link text. Context carries across inline
 * nodes so `"*word*"` gets an opening and a closing quote.
 */
export function applySmartTypography(tree: Root): void {
  let previous = ' ';
  const visit = (node: Nodes): void => {
    if (VERBATIM.has(node.type)) {
      if ('value' in node && node.value) previous = node.value.at(-1)!;
      return;
    }
    if (node.type === 'text') {
      node.value = transform(node.value, previous);
      previous = node.value.at(-1) ?? previous;
      return;
    }
    if (node.type === 'link' && isUrlText(node)) {
      previous = 'a';
      return;
    }
    if (!('children' in node)) return;
    const isBlock = node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell';
    if (isBlock) previous = ' ';
    for (const child of node.children) visit(child as Nodes);
    if (isBlock) previous = ' ';
  };
  visit(tree);
}

function isUrlText(link: { url: string; children: Nodes[] }): boolean {
  const only = link.children.length === 1 ? link.children[0] : undefined;
  if (only?.type !== 'text') return false;
  return link.url === only.value || link.url === `mailto:${only.value}` || link.url === `http://${only.value}`;
}

function transform(text: string, before: string): string {
  const dashed = text.replace(/\.\.\./g, '\u2026').replace(/---/g, '\u2014').replace(/--/g, '\u2013');
  let out = '';
  let previous = before;
  for (let i = 0; i < dashed.length; i++) {
    const char = dashed[i]!;
    const next = dashed[i + 1] ?? ' ';
    if (char === '"') {
      out += OPENS_QUOTE_AFTER.test(previous) && !/\s/u.test(next) ? '\u201c' : '\u201d';
    } else if (char === "'") {
      const opens = OPENS_QUOTE_AFTER.test(previous) && !/\s/u.test(next) && !/\d/u.test(next);
      out += opens ? '\u2018' : '\u2019';
    } else {
      out += char;
    }
    previous = char;
  }
  return out;
}
