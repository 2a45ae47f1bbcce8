import type { MarkdownIt, StateBlock, StateCore, StateInline } from 'markdown-it';

const DOLLAR = 0x24;
const BACKSLASH = 0x5c;
const BACKTICK = 0x60;

/**
 * Dollar math as readers of GitHub and Pandoc expect it, so that prices, shell's `$$` and dollars
 * in code stay text:
 * - `$…$` inline: the opening dollar is followed by a non-space, the closing one follows a
 *   non-space and is not followed by a digit ("$5 and $10" stays text); `\$` is a dollar.
 * - A code span binds tighter: a backtick ends the search for a closing dollar.
 * - A dollar that cannot close ends the search too: TeX math holds no bare dollar.
 * - `$$…$$` is display math only as a block: `$$` opening a block (its formula closed by a line
 *   ending in `$$`, with no blank line between), or a line `$$` or `$$…$$` of its own inside a
 *   paragraph. A `$$` mid-sentence is text.
 * - GitHub's `$`…`$`: a code span between single dollars is a formula.
 */
export function mathSyntax(md: MarkdownIt): void {
  md.inline.ruler.after('escape', 'math_inline', inlineMath);
  md.block.ruler.after('blockquote', 'math_block', blockMath, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  // Before text_join, while an escaped dollar is still a token of its own and not a delimiter.
  md.core.ruler.before('text_join', 'math_code_span', codeSpanMath);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function inlineMath(state: StateInline, silent: boolean): boolean {
  const { src, pos, posMax } = state;
  if (src.charCodeAt(pos) !== DOLLAR) return false;
  let run = pos + 1;
  while (run < posMax && src.charCodeAt(run) === DOLLAR) run++;
  if (run - pos > 1) {
    // `$$` (or a longer run) inside a paragraph is text: taken whole, so its last dollar opens nothing.
    if (!silent) state.pending += src.slice(pos, run);
    state.pos = run;
    return true;
  }
  const start = pos + 1;
  if (start >= posMax || isSpace(src.charCodeAt(start))) return false;
  const end = closingDollar(src, start, posMax);
  if (end === -1) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.content = src.slice(start, end);
    token.markup = '$';
  }
  state.pos = end + 1;
  return true;
}

/**
 * The dollar that closes a formula opened before `from`, or -1. TeX math holds no bare dollar, so
 * the search ends at the first unescaped dollar, closing or not ("$5, and $x$" is a price and a
 * formula), and at a backtick, which may open a code span. Every opening dollar's search thus ends
 * at the next dollar: a paragraph of "$a $a $a …" is read once.
 */
function closingDollar(src: string, from: number, limit: number): number {
  for (let i = from; i < limit; i++) {
    const code = src.charCodeAt(i);
    if (code === BACKTICK) return -1;
    if (code === DOLLAR && !isEscaped(src, i)) return isClosing(src, i) ? i : -1;
  }
  return -1;
}

function isClosing(src: string, at: number): boolean {
  const next = src.charCodeAt(at + 1);
  return !isSpace(src.charCodeAt(at - 1)) && next !== DOLLAR && !isDigit(next);
}

function isEscaped(src: string, at: number): boolean {
  let backslashes = 0;
  while (src.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

/** `$`…`$`, found after parsing so that the code span is the one markdown-it reads. */
function codeSpanMath(state: StateCore): void {
  for (const block of state.tokens) {
    const tokens = block.type === 'inline' ? block.children : null;
    if (!tokens) continue;
    for (let i = 1; i + 1 < tokens.length; i++) {
      const [before, span, after] = [tokens[i - 1]!, tokens[i]!, tokens[i + 1]!];
      if (span.type !== 'code_inline' || before.type !== 'text' || after.type !== 'text') continue;
      if (!/(?:^|[^$])\$$/.test(before.content) || !/^\$(?!\$)/.test(after.content)) continue;
      before.content = before.content.slice(0, -1);
      after.content = after.content.slice(1);
      span.type = 'math_inline';
      span.tag = 'math';
      span.markup = '$`';
    }
    block.children = tokens.filter((token) => token.type !== 'text' || token.content !== '');
  }
}

/**
 * Display math as a block. Opening a block, `$$` may carry the formula's first line; interrupting a
 * paragraph (markdown-it asks with `silent`), only a line `$$` or `$$…$$` of its own counts, so a
 * line of running text that happens to begin with `$$` stays in its paragraph.
 */
function blockMath(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const opening = lineText(state, startLine);
  if (!opening.startsWith('$$')) return false;
  const display = oneLineFormula(opening, startLine) ?? linesFormula(state, startLine, endLine, opening.slice(2), silent);
  if (!display) return false;
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = display.content;
  token.markup = '$$';
  token.map = [startLine, display.lastLine + 1];
  state.line = display.lastLine + 1;
  return true;
}

interface Display {
  content: string;
  lastLine: number;
}

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
}

/** `$$ formula $$` on one line: something between the pairs, and no bare dollar in it. */
function oneLineFormula(line: string, lineNumber: number): Display | null {
  const content = /^\$\$(.*)\$\$\s*$/.exec(line)?.[1]?.trim();
  return content && !hasBareDollar(content) ? { content, lastLine: lineNumber } : null;
}

function hasBareDollar(text: string): boolean {
  for (let at = text.indexOf('$'); at !== -1; at = text.indexOf('$', at + 1)) {
    if (!isEscaped(text, at)) return true;
  }
  return false;
}

/** `$$` then lines up to one ending in `$$`, with no blank line between. */
function linesFormula(state: StateBlock, startLine: number, endLine: number, first: string, interrupting: boolean): Display | null {
  if (first.includes('$') || (interrupting && first.trim())) return null;
  const lines: string[] = first.trim() ? [first] : [];
  for (let next = startLine + 1; next < endLine; next++) {
    if (state.isEmpty(next)) return null;
    if (state.sCount[next]! < state.blkIndent) return null;
    const text = lineText(state, next);
    const close = /^(.*?)\$\$\s*$/.exec(text);
    if (close) {
      if (close[1]!.trim()) lines.push(close[1]!);
      return { content: lines.join('\n'), lastLine: next };
    }
    lines.push(state.src.slice(state.bMarks[next]! + Math.min(state.tShift[next]!, state.blkIndent), state.eMarks[next]));
  }
  return null;
}
