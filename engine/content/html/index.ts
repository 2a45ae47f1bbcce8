import { DomUtils } from 'htmlparser2';
import type { Document } from 'domhandler';
import type { BuildContext } from '../../document/context.js';
import { NO_MARKS, type Block, type Inline, type Link, type Marks } from '../../document/types.js';
import { DEFAULT_BOUNDS } from '../../options.js';
import { applyStyleSheets } from './css.js';
import { countElements, textContent } from './elements.js';
import type { HtmlEnv } from './env.js';
import { htmlBlocks, inlinesOfBlocks } from './blocks.js';
import { htmlInlines } from './inlines.js';
import { parseRegion } from './fragment.js';
import { regionLength } from './region.js';

/** A run of sibling Markdown nodes that HTML opens and closes; `htmlOf` gives a node's HTML, or null for Markdown. */
export interface HtmlRegion<T> {
  nodes: readonly T[];
  htmlOf(node: T): string | null;
}

const headingCounts = new WeakMap<BuildContext, number>();

/** How many of `nodes`, from `start`, the HTML starting there spans (see `regionLength`). */
export function htmlRegionLength<T>(nodes: readonly T[], start: number, htmlOf: (node: T) => string | null): number {
  return regionLength(nodes, start, htmlOf, DEFAULT_BOUNDS.maxDepth);
}

/** An HTML block, with the Markdown blocks it wraps, as Quire blocks. */
export async function regionBlocks<T>(region: HtmlRegion<T>, context: BuildContext, markdown: (node: T) => Promise<Block[]>): Promise<Block[]> {
  const document = parseRegion(region.nodes, region.htmlOf, '\n');
  const env = environment(document, context, {
    markdownBlocks: (index) => markdown(region.nodes[index]!),
    // Markdown blocks that land inside inline HTML (`<del>`, a table cell) join its line.
    markdownInlines: async (index) => inlinesOfBlocks(await markdown(region.nodes[index]!)),
  });
  return htmlBlocks(document.children, { marks: NO_MARKS, color: null, align: null, hidden: false }, env);
}

/** Inline HTML, with the Markdown inlines it wraps, as Quire inlines carrying the outer marks and link. */
export async function regionInlines<T>(
  region: HtmlRegion<T>,
  marks: Marks,
  link: Link | null,
  context: BuildContext,
  markdown: (node: T, marks: Marks, link: Link | null) => Promise<Inline[]>,
): Promise<Inline[]> {
  const document = parseRegion(region.nodes, region.htmlOf, '');
  const env = environment(document, context, {
    // Markdown inside a paragraph's inline HTML is inline only.
    markdownBlocks: async () => [],
    markdownInlines: (index, innerMarks, innerLink) => markdown(region.nodes[index]!, innerMarks, innerLink),
  });
  return htmlInlines(document.children, { marks, color: null, align: null, hidden: false }, link, env);
}

function environment(document: Document, context: BuildContext, markdown: Pick<HtmlEnv, 'markdownBlocks' | 'markdownInlines'>): HtmlEnv {
  const count = countElements(document.children);
  const styles = DomUtils.getElementsByTagName('style', document.children, true).map(textContent);
  return {
    context,
    sheets: styles.length > 0 ? applyStyleSheets(document, styles, count) : new Map(),
    ...markdown,
    headingId: () => {
      const next = (headingCounts.get(context) ?? 0) + 1;
      headingCounts.set(context, next);
      return `html-heading-${next}`;
    },
  };
}
