import type { ChildNode, Element } from 'domhandler';

/** Never drawn: scripts, styles (applied, not shown), forms, embedded pages and media. */
export const IGNORED = new Set([
  'script',
  'noscript',
  'style',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'base',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'option',
  'datalist',
  'output',
  'fieldset',
  'label',
  'canvas',
  'audio',
  'video',
  'track',
  'source',
  'map',
  'area',
  'svg',
  'math',
]);

const BLOCKS = new Set([
  'div',
  'p',
  'center',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'nav',
  'aside',
  'figure',
  'figcaption',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'details',
  'summary',
  'blockquote',
  'pre',
  'hr',
  'address',
  'body',
  'html',
  'hgroup',
]);

export function isBlockElement(name: string): boolean {
  return BLOCKS.has(name);
}

/** The text of an element's subtree, found without recursion; `<br>` counts as a line break. */
export function textContent(element: Element): string {
  let text = '';
  const stack: ChildNode[] = [...element.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') text += node.data;
    else if (node.type === 'tag' && node.name === 'br') text += '\n';
    else if (node.type === 'tag' && !IGNORED.has(node.name)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return text;
}

/** The number of elements in a tree (its depth was bounded when its region was found). */
export function countElements(nodes: readonly ChildNode[]): number {
  let count = 0;
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type !== 'tag') continue;
    count++;
    for (const child of node.children) stack.push(child);
  }
  return count;
}
