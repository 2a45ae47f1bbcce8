import type { MarkdownIt, StateBlock, StateInline } from 'markdown-it';

const DOLLAR = 0x24;

/**
 * `$…$` and `$$…$$` math, as GitHub reads it: an opening dollar is followed by a non-space, a
 * closing one follows a non-space and is not followed by a digit (so "$5 and $10" stays text).
 * `$$` on its own line opens a display block closed by the next `$$` line.
 */
export function mathSyntax(md: MarkdownIt): void {
  md.inline.ruler.after('escape', 'math_inline', inlineMath);
  md.block.ruler.after('blockquote', 'math_block', blockMath, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
}

function inlineMath(state: StateInline, silent: boolean): boolean {
  const { src, pos, posMax } = state;
  if (src.charCodeAt(pos) !== DOLLAR) return false;
  const fence = src.charCodeAt(pos + 1) === DOLLAR ? 2 : 1;
  const start = pos + fence;
  if (start >= posMax || /\s/.test(src[start]!)) return false;
  let end = start;
  for (;;) {
    end = src.indexOf('$'.repeat(fence), end);
    if (end === -1 || end >= posMax) return false;
    if (src.charCodeAt(end - 1) === 0x5c) {
      end += 1;
      continue;
    }
    const after = src.charCodeAt(end + fence);
    if (/\s/.test(src[end - 1]!) || (fence === 1 && after >= 0x30 && after <= 0x39) || (fence === 1 && after === DOLLAR)) {
      end += 1;
      continue;
    }
    break;
  }
  if (end === start) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.content = src.slice(start, end);
    token.markup = '$'.repeat(fence);
  }
  state.pos = end + fence;
  return true;
}

function blockMath(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const begin = state.bMarks[startLine]! + state.tShift[startLine]!;
  const lineEnd = state.eMarks[startLine]!;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  if (state.src.slice(begin, begin + 2) !== '$$') return false;
  const firstLine = state.src.slice(begin + 2, lineEnd);
  const oneLine = /^(.*?)\$\$\s*$/.exec(firstLine);
  if (silent) return true;
  let content: string;
  let next = startLine;
  if (oneLine && oneLine[1]!.trim().length > 0) {
    content = oneLine[1]!.trim();
  } else {
    const lines: string[] = firstLine.trim() ? [firstLine] : [];
    let closed = false;
    while (++next < endLine) {
      const start = state.bMarks[next]! + state.tShift[next]!;
      const text = state.src.slice(start, state.eMarks[next]);
      if (state.sCount[next]! < state.blkIndent && text.length > 0) break;
      const close = /^(.*?)\$\$\s*$/.exec(text);
      if (close) {
        if (close[1]!.trim()) lines.push(close[1]!);
        closed = true;
        break;
      }
      lines.push(state.src.slice(state.bMarks[next]! + Math.min(state.tShift[next]!, state.blkIndent), state.eMarks[next]));
    }
    if (!closed) return false;
    content = lines.join('\n');
  }
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = content;
  token.markup = '$$';
  token.map = [startLine, next + 1];
  state.line = next + 1;
  return true;
}
