import { renderBarcode } from '../content/barcode/index.js';
import { renderMath } from '../content/math/index.js';
import { renderMermaid } from '../content/mermaid/index.js';
import { highlightCode } from '../content/highlight/index.js';
import type { ContentOptions, ContentResult } from '../content/result.js';
import type { Features } from '../options.js';
import { emojiDrawing, splitEmoji } from '../content/emoji/index.js';
import { codeBlockKey, type CodeBlockCache } from './code-block-cache.js';
import type { Block, HighlightedLine, Inline, Marks } from './types.js';

/**
 * A fenced block: a diagram, a formula or a barcode when its switch is on and it can be drawn;
 * otherwise code (highlighted when asked), with a short note saying why a drawing failed. With a
 * cache, a block made before from the same source and settings is taken from it.
 */
export async function codeBlock(text: string, language: string | null, features: Features, options: ContentOptions, cache?: CodeBlockCache): Promise<Block> {
  const make = () => madeCodeBlock(text, language, features, options);
  return cache ? cache.block(codeBlockKey(text, language, features, options.theme), make) : make();
}

async function madeCodeBlock(text: string, language: string | null, features: Features, options: ContentOptions): Promise<Block> {
  const lang = language?.toLowerCase() ?? null;
  if (lang === 'mermaid' && features.mermaid) {
    return drawnOrCode(await renderMermaid(text, options), text, lang, 'Figure', features.mermaid_appendix, 'Diagram not drawn');
  }
  if (lang === 'math' && features.math)
    return drawnOrCode(await renderMath(text, { ...options, display: true }), text, lang, 'Formula', false, 'Formula not typeset');
  if ((lang === 'qr' || lang === 'barcode') && features.barcode) {
    return drawnOrCode(await renderBarcode(lang, text, options), text, lang, 'Figure', false, 'Barcode not drawn');
  }
  const lines = features.highlight && lang ? await highlightCode(text, lang, options.theme) : null;
  return { kind: 'code', text, language: lang, lines: features.emoji ? await withEmoji(text, lines) : lines, note: null };
}

/** A token of code as an inline: an emoji as its drawing (read as its characters), else text in the token's colour. */
export function tokenInline(token: HighlightedLine[number], marks: Marks, code: object | null): Inline {
  if (token.emoji) return { kind: 'drawing', drawing: token.emoji, role: { kind: 'text', text: token.text, code }, alt: token.text, link: null };
  return {
    kind: 'text',
    text: token.text,
    marks: { ...marks, bold: token.bold ?? marks.bold, italic: token.italic ?? marks.italic },
    link: null,
    code,
    ...(token.color ? { color: token.color } : {}),
  };
}

/** A code block's lines as one plain token each. */
export function plainLines(text: string): HighlightedLine[] {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => [{ text: line, color: null }]);
}

/**
 * The lines with each emoji a token of its own carrying its drawing, drawn in colour as in text
 * (no code face has emoji); the lines as they were when the code holds none.
 */
async function withEmoji(text: string, lines: HighlightedLine[] | null): Promise<HighlightedLine[] | null> {
  if (splitEmoji(text).every((part) => !part.emoji)) return lines;
  const out: HighlightedLine[] = [];
  for (const line of lines ?? plainLines(text)) {
    const tokens: HighlightedLine = [];
    for (const token of line) {
      for (const part of splitEmoji(token.text)) {
        const drawing = part.emoji ? await emojiDrawing(part.text) : null;
        tokens.push(drawing ? { ...token, text: part.text, emoji: drawing } : { ...token, text: part.text });
      }
    }
    out.push(tokens);
  }
  return out;
}

/** Display math written as `$$…$$`. */
export async function displayMath(tex: string, options: ContentOptions): Promise<Block> {
  return drawnOrCode(await renderMath(tex, { ...options, display: true }), tex, 'math', 'Formula', false, 'Formula not typeset');
}

function drawnOrCode(result: ContentResult, text: string, language: string, role: 'Figure' | 'Formula', appendix: boolean, failure: string): Block {
  if (result.ok) return { kind: 'drawing', drawing: result.drawing, role, alt: result.alt, caption: result.caption ?? null, appendix };
  return { kind: 'code', text, language, lines: null, note: `${failure}: ${result.reason}` };
}
