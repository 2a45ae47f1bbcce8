import { NO_MARKS, type Block } from './types.js';

/** Levels `number_headings` numbers: H1–H3, as 1, 1.1, 1.1.1. */
const NUMBERED_LEVELS = 3;
/** Between a heading's number and its text: an en space, the gap LaTeX leaves there. */
const NUMBER_GAP = '\u2002';

/**
 * Numbers the document's headings in place: the number leads the heading's text (so the contents,
 * the outline and `{section}` show it too). Levels above the first one used are left out, so a
 * document of H2s numbers them 1, 2, 3 rather than 0.1, 0.2. `unnumbered` headings keep no number
 * and do not count, and neither does `title`, the H1 that stands for the document's title (a
 * README's `# Name` over its `##` sections, numbered 1, 2, 3 as LaTeX numbers under `\title`).
 */
export function numberHeadings(blocks: readonly Block[], title: Block | null): void {
  const counters = [0, 0, 0];
  const visit = (list: readonly Block[]) => {
    for (const block of list) {
      if (block.kind === 'quote') visit(block.children);
      else if (block.kind === 'list') block.items.forEach((item) => visit(item.children));
      if (block.kind !== 'heading' || block.level > NUMBERED_LEVELS || block.unnumbered || block === title) continue;
      const depth = block.level - 1;
      counters[depth]!++;
      counters.fill(0, depth + 1);
      const first = counters.findIndex((count) => count > 0);
      const number = counters.slice(first, depth + 1).join('.');
      block.content.unshift({ kind: 'text', text: `${number}${NUMBER_GAP}`, marks: NO_MARKS, link: null, code: null });
      block.text = `${number} ${block.text}`;
      block.number = number;
    }
  };
  visit(blocks);
}
