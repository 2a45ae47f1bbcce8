import type { Blockquote, Root } from 'mdast';
import type { AlertKind } from '../style/alert-kinds.js';

declare module 'mdast' {
  interface BlockquoteData {
    /** Set on a GitHub alert (`> [!NOTE]`), whose marker has been taken out of its text. */
    alert?: AlertKind;
  }
}

/** The marker alone on the first line (case as written does not matter), maybe with trailing blanks. */
const MARKER = /^\[!(note|tip|important|warning|caution)\][ \t]*(\n|$)/i;

/**
 * GitHub alerts: a block quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
 * `[!WARNING]` or `[!CAUTION]` and nothing else, with a body after it. As on GitHub, only block
 * quotes at the top level (alerts cannot be nested in lists or quotes), and a marker with text
 * after it on its line, an unknown kind or an empty body leaves an ordinary block quote.
 */
export function markAlerts(tree: Root): void {
  for (const node of tree.children) if (node.type === 'blockquote') readMarker(node);
}

function readMarker(quote: Blockquote): void {
  const paragraph = quote.children[0];
  if (paragraph?.type !== 'paragraph') return;
  const [first, next] = paragraph.children;
  if (first?.type !== 'text') return;
  const marker = MARKER.exec(first.value);
  if (!marker) return;
  const rest = first.value.slice(marker[0].length);
  // Ended by the end of its text, the marker's line goes on unless a hard break or nothing follows.
  const atTextEnd = marker[2] === '';
  if (atTextEnd && next !== undefined && next.type !== 'break') return;
  const dropped = (rest === '' ? 1 : 0) + (atTextEnd && next?.type === 'break' ? 1 : 0);
  if (paragraph.children.length === dropped && quote.children.length === 1) return;

  quote.data = { ...quote.data, alert: marker[1]!.toLowerCase() as AlertKind };
  first.value = rest;
  paragraph.children.splice(0, dropped);
  if (paragraph.children.length === 0) quote.children.shift();
}
