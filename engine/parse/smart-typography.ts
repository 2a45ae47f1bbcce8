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
  const dashed = DOTS_OR_DASHES.test(text)
    ? text
        .replace(/\.\.\./g, '\u2026')
        .replace(/---/g, '\u2014')
        .replace(/--/g, '\u2013')
    : text;
  // Only the quotes change: the text between them is copied in slices, not character by character.
  let out = '';
  let copied = 0;
  QUOTES.lastIndex = 0;
  for (let match = QUOTES.exec(dashed); match; match = QUOTES.exec(dashed)) {
    const i = match.index;
    const previous = i > 0 ? dashed[i - 1]! : before;
    const next = dashed[i + 1] ?? ' ';
    const opens = OPENS_QUOTE_AFTER.test(previous) && !/\s/u.test(next);
    const quote = match[0] === '"' ? (opens ? '\u201c' : '\u201d') : opens && !/\d/u.test(next) ? '\u2018' : '\u2019';
    out += dashed.slice(copied, i) + quote;
    copied = i + 1;
  }
  return copied === 0 ? dashed : out + dashed.slice(copied);
}

const DOTS_OR_DASHES = /\.\.\.|--/;
const QUOTES = /["']/g;
