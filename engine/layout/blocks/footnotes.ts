import type { FootnoteDefinition } from '../../document/types.js';
import type { StructId } from '../structure.js';
import { box, type VBox } from '../vertical.js';
import { indented, type BlockFrame, type LayoutContext } from './context.js';
import { layoutBlocks } from './index.js';
import { labelItems } from './label.js';
import { smallLook } from './looks.js';

const LABEL_WIDTH = 14;

/** Each footnote as the lines to set at the foot of a page: smaller, numbered, tagged as a Note. */
export function layoutFootnotes(definitions: readonly FootnoteDefinition[], frame: BlockFrame, context: LayoutContext): Map<number, VBox[]> {
  return new Map(definitions.map((definition) => [definition.number, layoutFootnote(definition, frame, context)]));
}

export function layoutFootnote(definition: FootnoteDefinition, frame: BlockFrame, context: LayoutContext): VBox[] {
  const look = smallLook(context.palette);
  const noteContext: LayoutContext = { ...context, landscape: null, body: { ...look, color: context.palette.text, align: undefined, hyphenate: true } };
  const noteTag: StructId | null = context.tagger.add('Note', frame.tag, { elementId: definition.dest });
  const laid = layoutBlocks(definition.blocks, indented(frame, LABEL_WIDTH, { tag: noteTag, tight: true }), noteContext);
  const lines: VBox[] = laid.nodes.flatMap((node) =>
    node.kind === 'box' ? [node] : node.kind === 'float' ? node.boxes : node.kind === 'glue' ? [box(node.height, [], [])] : [],
  );
  if (lines.length === 0) lines.push(box(look.leading, [], [], look.leading * 0.75));
  const first = lines[0]!;
  first.items.unshift(
    { kind: 'dest', name: definition.dest, x: frame.x, y: 0 },
    ...labelItems(`${definition.number}`, { ...look, size: look.size * 0.85 }, frame.x + LABEL_WIDTH - 4, first.baseline, noteTag, context),
  );
  return lines.map((line) => ({ ...line, containers: [], footnotes: [] }));
}
