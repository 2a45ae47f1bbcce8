import type { HighlightedLine } from '../../document/types.js';
import type { Theme } from '../../style/theme.js';
import { highlighterFor } from './languages.js';
import { pieces } from './pieces.js';
import { tokensOfHtml } from './tokens.js';

/**
 * Longer blocks are shown plain. highlight.js runs synchronously and cannot be interrupted; in
 * pieces (`pieces.ts`) this keeps one block to about a second even on hostile text (real code of
 * this size takes 0.1–0.2 s).
 */
const MAX_HIGHLIGHTED_CHARS = 64 * 1024;

/** Code coloured by language, one array of tokens per line; null for unknown languages. */
export async function highlightCode(code: string, language: string, theme: Theme): Promise<HighlightedLine[] | null> {
  if (code.length > MAX_HIGHLIGHTED_CHARS) return null;
  const hljs = await highlighterFor(language);
  if (!hljs || hljs.getLanguage(language) === hljs.getLanguage('plaintext')) return null;
  const lines: HighlightedLine[] = [];
  for (const piece of pieces(code.replace(/\n$/, ''))) {
    const pieceLines = tokensOfHtml(hljs.highlight(piece, { language, ignoreIllegals: true }).value, theme);
    // A piece that was cut inside a line continues that line.
    if (lines.length > 0) lines[lines.length - 1]!.push(...pieceLines.shift()!);
    lines.push(...pieceLines);
  }
  return lines;
}
