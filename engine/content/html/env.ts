import type { BuildContext } from '../../document/context.js';
import type { Block, Inline, Link, Marks } from '../../document/types.js';
import type { SheetRules } from './css.js';

/** What converting one region of HTML needs from the document builder. */
export interface HtmlEnv {
  context: BuildContext;
  /** Rules of the region's own `<style>` elements. */
  sheets: SheetRules;
  /** The Markdown between the HTML pieces, by index: as blocks, or as inlines carrying the HTML's marks and link. */
  markdownBlocks(index: number): Promise<Block[]>;
  markdownInlines(index: number, marks: Marks, link: Link | null): Promise<Inline[]>;
  /** A destination name for a heading written in HTML, unique in the document. */
  headingId(): string;
}
