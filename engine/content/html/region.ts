import { Parser } from 'htmlparser2';
import { RendererBoundError } from '../../errors.js';

/** Stands for a piece of Markdown inside HTML that spans it; its index says which. */
export const PLACEHOLDER = 'quire-markdown';

export function placeholder(index: number): string {
  return `<${PLACEHOLDER} data-index="${index}"></${PLACEHOLDER}>`;
}

/**
 * How many of `nodes`, from `start`, belong to the HTML that begins there: `<div
 * align="center">`, then Markdown, then `</div>` is one piece of HTML holding Markdown, as
 * READMEs write it. The region ends where every element it opened is closed again (by the
 * same rules a browser uses for implied end tags), or with the last node. Nesting deeper than
 * `maxDepth` is refused here, before any tree is built from it.
 */
export function regionLength<T>(nodes: readonly T[], start: number, htmlOf: (node: T) => string | null, maxDepth: number): number {
  let depth = 0;
  const parser = new Parser({
    onopentag: () => {
      if (++depth > maxDepth) throw new RendererBoundError('DepthLimit', `HTML nested deeper than ${maxDepth} levels`);
    },
    onclosetag: () => void depth--,
  });
  for (let i = start; i < nodes.length; i++) {
    const html = htmlOf(nodes[i]!);
    parser.write(html ?? placeholder(i));
    if (depth <= 0) return i - start + 1;
  }
  return nodes.length - start;
}
