import { QuireError, throwIfAborted } from '../../errors.js';
import { palette } from '../../style/palette.js';
import type { ContentOptions, ContentResult } from '../result.js';
import { SvgError } from '../svg/svg-error.js';
import { checkNesting } from './bounds.js';
import { FormulaCache } from './formula-cache.js';
import { loadTypesetter } from './mathjax.js';

const cache = new FormulaCache();

/**
 * TeX → a vector formula typeset by MathJax, coloured for the theme, with its source as the text
 * alternative. Invalid TeX answers MathJax's complaint (the builder shows the source in red or as
 * code); a hostile formula throws its named renderer bound.
 */
export async function renderMath(tex: string, options: ContentOptions & { display: boolean }): Promise<ContentResult> {
  throwIfAborted(options.signal);
  const source = tex.trim();
  if (!source) return { ok: false, reason: 'the formula is empty' };
  const key = `${options.display ? 'display' : 'inline'} ${options.theme} ${source}`;
  const cached = cache.get(key);
  if (cached) return cached;
  checkNesting(source);
  const typesetter = await loadTypesetter();
  let result: ContentResult;
  try {
    const svg = typesetter.toSvg(source, options.display);
    // The SVG converter loads with the first formula, like MathJax itself.
    const { formulaDrawing } = await import('./formula-drawing.js');
    result = { ok: true, drawing: formulaDrawing(svg, palette(options.theme).text), alt: source.replace(/\s+/g, ' ') };
  } catch (error) {
    if (error instanceof QuireError) throw error;
    result = { ok: false, reason: reasonOf(error) };
  }
  cache.set(key, result);
  return result;
}

/** MathJax's TeX error (a TexError, which is not an Error) or why the drawing failed, on one line. */
function reasonOf(error: unknown): string {
  const text = typeof error === 'object' && error && 'message' in error ? String(error.message) : String(error);
  const message = text.split('\n')[0]!.trim();
  if (error instanceof SvgError) return `the formula could not be drawn: ${message}`;
  return message || 'the formula could not be typeset';
}
