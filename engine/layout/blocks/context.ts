import type { FontLibrary } from '../../text/font-library.js';
import type { Hyphenator } from '../../text/hyphenation.js';
import { Tagger, type StructId } from '../structure.js';
import type { PageGeometry } from '../../style/page-geometry.js';
import type { Palette } from '../../style/palette.js';
import type { Block } from '../../document/types.js';
import type { FrameItem } from '../frame.js';
import type { BlockNodes, Container, VNode } from '../vertical.js';
import type { TextLook } from './text-look.js';

/** What every block layout shares in one render. */
export interface LayoutContext {
  fonts: FontLibrary;
  palette: Palette;
  tagger: Tagger;
  /** Hyphenation patterns for the document language, or null when it is unknown. */
  hyphenator: Hyphenator | null;
  /** Justify body text (only when a language is known, so it can be hyphenated). */
  justify: boolean;
  geometry: PageGeometry;
  /**
   * The page a table too wide for this one is set on, turned sideways; null where a block
   * cannot leave the page it is on (footnotes).
   */
  landscape: PageGeometry | null;
  /** How far a code block may reach past the text block's edges before it wraps. */
  codeReach: number;
  /** The look of running text here: smaller in footnotes, muted in quotes. */
  body: TextLook;
  /** Height a footnote takes at the foot of a page, for a block that wants to fit one page (a turned table). */
  footnoteHeight(number: number): number;
  /** Diagrams repeated on pages of their own after the document. */
  appendix: DiagramAppendix;
  signal: AbortSignal | undefined;
  warn(message: string): void;
}

/**
 * Lays out a sequence of blocks: the dispatcher's `layoutBlocks` (blocks/index.ts), handed to the
 * blocks that hold blocks (quotes, alerts, list items) so that they need not import it.
 */
export type LayoutBlocks = (blocks: readonly Block[], frame: BlockFrame, context: LayoutContext) => BlockNodes;

/** Where a block is laid out: its left edge, width, enclosing decorations and parent element. */
export interface BlockFrame {
  x: number;
  width: number;
  containers: readonly Container[];
  tag: StructId | null;
  /** Inside a tight list: paragraphs get no space between them. */
  tight: boolean;
  /** How many lists enclose this frame (bullets change shape with depth). */
  listDepth: number;
}

/**
 * A figure here may float to the next page: only at the top level, where no enclosing list or
 * quote draws marks beside it that would have to move too.
 */
export function mayFloat(frame: BlockFrame): boolean {
  return frame.containers.length === 0 && frame.listDepth === 0;
}

export function indented(frame: BlockFrame, by: number, changes: Partial<BlockFrame> = {}): BlockFrame {
  return { ...frame, x: frame.x + by, width: frame.width - by, ...changes };
}

const UNTAGGED = new Tagger(null);

/** The same context tagging nothing: for measuring and trial layouts whose result is thrown away. */
export function untagged(context: LayoutContext): LayoutContext {
  return { ...context, tagger: UNTAGGED };
}

/** Where diagrams are gathered to be drawn again after the document (layout/appendix.ts). */
export interface DiagramAppendix {
  /** Records a diagram and returns the link that covers it where it was written. */
  add(block: Block & { kind: 'drawing' }, x: number, width: number, height: number, tagger: Tagger, parent: StructId | null): FrameItem[];
  /** The appendix pages: each diagram after a forced page break. */
  nodes(frame: BlockFrame, context: LayoutContext): VNode[];
}
