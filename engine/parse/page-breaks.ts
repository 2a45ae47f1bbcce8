import type { MarkdownIt, StateBlock } from 'markdown-it';

declare module 'mdast' {
  /** A forced page break: what follows starts a new page. */
  interface PageBreak extends Node {
    type: 'pageBreak';
  }
  interface RootContentMap {
    pageBreak: PageBreak;
  }
  interface BlockContentMap {
    pageBreak: PageBreak;
  }
}

/**
 * The spellings of a forced page break, each a line of its own: LaTeX's `\newpage` and
 * `\pagebreak` (as Pandoc users write them), the HTML comment `<!-- pagebreak -->`, and the CSS
 * of an empty `<div style="page-break-after: always"></div>` (or `break-after: page`).
 */
const PAGE_BREAK = new RegExp(
  [
    String.raw`\\(?:newpage|pagebreak)`,
    String.raw`<!--\s*pagebreak\s*-->`,
    String.raw`<div\s+style\s*=\s*(["'])\s*(?:page-break-(?:after|before)\s*:\s*always|break-(?:after|before)\s*:\s*page)\s*;?\s*\1\s*>\s*<\/div>`,
  ]
    .map((spelling) => `(?:${spelling})`)
    .join('|')
    .replace(/^/, '^[ ]{0,3}(?:')
    .concat(')[ \\t]*$'),
  'i',
);

/**
 * A block rule for forced page breaks, ahead of HTML blocks (so the HTML spellings work with
 * `html_blocks` off too) and able to end a paragraph. Code blocks are read before it, so a break
 * written in code stays code.
 */
export function pageBreakSyntax(md: MarkdownIt): void {
  md.block.ruler.before('html_block', 'page_break', pageBreak, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
}

function pageBreak(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  // Indented four or more columns past its container, the line is code (or a paragraph's continuation).
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const line = state.src.slice(state.bMarks[startLine]! + state.tShift[startLine]!, state.eMarks[startLine]!);
  if (!PAGE_BREAK.test(line)) return false;
  if (silent) return true;
  const token = state.push('page_break', '', 0);
  token.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}
