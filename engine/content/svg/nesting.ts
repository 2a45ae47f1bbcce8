import { Parser } from 'htmlparser2';
import { RendererBoundError } from '../../errors.js';

/**
 * Refuses markup nested deeper than `maxDepth` before a tree is built: building one from
 * 100 000 nested elements takes htmlparser2 seconds (its work grows with the depth), while this
 * pass stops at the first element too deep. Returns how many elements there are, so a caller
 * can refuse too many before a tree of them fills the heap.
 */
export function checkNesting(markup: string, maxDepth: number, xmlMode: boolean): number {
  let depth = 0;
  let elements = 0;
  const parser = new Parser(
    {
      onopentag() {
        elements++;
        if (++depth > maxDepth) throw new RendererBoundError('DepthLimit', `markup nested deeper than ${maxDepth} levels`);
      },
      onclosetag() {
        depth--;
      },
    },
    { xmlMode },
  );
  parser.write(markup);
  parser.end();
  return elements;
}
