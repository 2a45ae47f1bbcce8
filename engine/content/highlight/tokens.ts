import type { HighlightedLine } from '../../document/types.js';
import type { Theme } from '../../style/theme.js';
import { scopeStyle, type TokenStyle } from './theme.js';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };
const MARKUP = /<span class="([^"]*)">|<\/span>|([^<]+)/g;
const PLAIN: TokenStyle = { color: null };

/**
 * highlight.js's HTML (nested `<span class="hljs-…">` around escaped text) → lines of styled
 * tokens. A span without a style of its own keeps its parent's, as the CSS themes do.
 */
export function tokensOfHtml(html: string, theme: Theme): HighlightedLine[] {
  const lines: HighlightedLine[] = [[]];
  const stack: TokenStyle[] = [PLAIN];
  for (const match of html.matchAll(MARKUP)) {
    if (match[1] !== undefined) stack.push(scopeStyle(scopeOf(match[1]), theme) ?? stack[stack.length - 1]!);
    else if (match[2] === undefined) stack.pop();
    else {
      const style = stack[stack.length - 1]!;
      const text = match[2].replace(/&(?:amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity]!);
      text.split('\n').forEach((piece, index) => {
        if (index > 0) lines.push([]);
        if (piece) append(lines[lines.length - 1]!, piece, style);
      });
    }
  }
  return lines;
}

/** `hljs-title class_ inherited__` → `title.class_.inherited__`; sub-language wrappers have no scope. */
function scopeOf(classes: string): string {
  const [first = '', ...rest] = classes.split(' ');
  if (!first.startsWith('hljs-')) return '';
  return [first.slice('hljs-'.length), ...rest].join('.');
}

/** Adds text to a line, joining it to the last token when the style is the same. */
function append(line: HighlightedLine, text: string, style: TokenStyle): void {
  const last = line[line.length - 1];
  if (last && last.color === style.color && last.bold === style.bold && last.italic === style.italic) {
    last.text += text;
    return;
  }
  line.push({ text, color: style.color, ...(style.bold ? { bold: true } : {}), ...(style.italic ? { italic: true } : {}) });
}
