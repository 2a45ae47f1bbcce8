import { RendererBoundError } from '../../errors.js';

/**
 * Groups (`{…}`, `\left…\right`, `\begin…\end`) nested in one formula. Real formulas stay far
 * below; MathJax recurses per level and runs out of stack somewhere past 64 on a small stack.
 */
export const MAX_NESTING = 32;
/**
 * MathML nodes built for one formula. A 10×10 matrix makes about 400 and a long aligned derivation
 * a few thousand; 5,000 take about 300 ms to typeset, and macro tricks could otherwise build
 * millions within MathJax's own limits.
 */
export const MAX_NODES = 5_000;
/** MathJax's own safety limits: macro substitutions per formula, and characters a macro may grow the input to. */
export const MAX_MACROS = 1_000;
export const MAX_BUFFER = 5 * 1024;

/** Throws DepthLimit when the formula's groups nest deeper than MAX_NESTING, before MathJax sees it. */
export function checkNesting(tex: string): void {
  let depth = 0;
  for (const match of tex.matchAll(/\\([A-Za-z]+|.)|[{}]/gs)) {
    const token = match[1] ?? match[0];
    if (token === '{' && !match[1]) depth++;
    else if (token === '}' && !match[1]) depth--;
    else if (token === 'left' || token === 'begin') depth++;
    else if (token === 'right' || token === 'end') depth--;
    if (depth > MAX_NESTING) throw new RendererBoundError('DepthLimit', `a formula nests groups deeper than ${MAX_NESTING} levels`);
  }
}

/** Control words that leave definitions behind in MathJax (macros, environments, colours, labels). */
const DEFINING = /^(?:[gex]?def|let|futurelet|new.*|renew.*|provide.*|Declare.*|define.*|label|usetagform|mathtoolsset|setOptions|Newextarrow)$/;

/**
 * Whether typesetting this formula may change MathJax's state for the formulas after it. Each
 * formula stands alone (renders must not see each other's macros, and the cache is keyed by
 * source), so the typesetter starts afresh after such a formula.
 */
export function mayDefine(tex: string): boolean {
  for (const match of tex.matchAll(/\\([A-Za-z]+)/g)) if (DEFINING.test(match[1]!)) return true;
  return false;
}
