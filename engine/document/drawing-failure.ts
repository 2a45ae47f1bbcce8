import type { Block } from './types.js';

/** Characters of a failed drawing's source quoted in its warning: enough for a person (or the editor) to find it. */
const QUOTED_CHARS = 60;

/**
 * A formula, diagram or barcode that could not be drawn is set as its code with a note; the
 * note also becomes a warning naming the source's first line, so the CLI prints it and the
 * editor can mark the line it came from.
 */
export function warnIfNotDrawn(block: Block, source: string, warn: (message: string) => void): Block {
  if (block.kind === 'code' && block.note !== null) warn(`${block.note.charAt(0).toLowerCase()}${block.note.slice(1)}${sourceBegins(source)}`);
  return block;
}

/** For inline `$…$` TeX that could not be set (drawn as its source in red). */
export function formulaNotTypeset(tex: string, reason: string): string {
  return `formula not typeset: ${reason}${sourceBegins(tex)}`;
}

function sourceBegins(source: string): string {
  const line = source.trim().split('\n')[0]!.trim();
  if (line === '') return '';
  return `; its source begins "${line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS)}…` : line}"`;
}
