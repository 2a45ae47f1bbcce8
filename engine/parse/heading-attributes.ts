import type { Heading, Nodes, Root } from 'mdast';

declare module 'mdast' {
  interface HeadingData {
    /** The anchor written after the heading (`## Setup {#install}`), in place of its slug. */
    id?: string;
    /** Written `{-}` or `{.unnumbered}`: left out of `number_headings`. */
    unnumbered?: boolean;
  }
}

const PART = String.raw`(?:#[A-Za-z][\w:.-]*|\.[\w-]+|-|[\w-]+=(?:"[^"\s}]*"|[^\s}"]*))`;
/** The braces from the last `{` on: parts parted by blanks, so each reads one way (no backtracking blow-up). */
const ATTRIBUTES = new RegExp(String.raw`^\{[ \t]*(${PART}(?:[ \t]+${PART})*)[ \t]*\}[ \t]*$`);

/**
 * Pandoc's heading attributes at the end of a heading's text: `{#id}` names its anchor, `{-}` or
 * `{.unnumbered}` leaves it unnumbered; other classes and key=value pairs are read and dropped.
 * Only at the very end, in plain text (not in code), as Pandoc reads them.
 */
export function readHeadingAttributes(tree: Root): void {
  const stack: Nodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'heading') readAttributes(node);
    else if ('children' in node && node.type !== 'paragraph' && node.type !== 'table') stack.push(...(node.children as Nodes[]));
  }
}

function readAttributes(heading: Heading): void {
  const last = heading.children.at(-1);
  if (last?.type !== 'text') return;
  const open = last.value.lastIndexOf('{');
  const match = open === -1 ? null : ATTRIBUTES.exec(last.value.slice(open));
  if (!match) return;
  const parts = match[1]!.split(/[ \t]+/);
  const id = parts.find((part) => part.startsWith('#'))?.slice(1);
  const unnumbered = parts.includes('-') || parts.includes('.unnumbered');
  // Before the braces may stand an ATX heading's closing hashes (`### Title ### {#id}`), as Pandoc reads them.
  last.value = last.value.slice(0, open).replace(/(?:^|[ \t]+)#+[ \t]*$|[ \t]+$/, '');
  if (last.value === '') heading.children.pop();
  heading.data = { ...heading.data, ...(id === undefined ? {} : { id }), ...(unnumbered ? { unnumbered } : {}) };
}
