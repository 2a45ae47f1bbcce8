import type { Anchor, Inline } from './types.js';

/** The anchors among inline content. */
export function anchorsIn(inlines: readonly Inline[]): Anchor[] {
  return inlines.filter((inline): inline is Anchor => inline.kind === 'anchor');
}

/** Whether an inline shows anything: an anchor does not, nor does white space alone. */
export function shows(inline: Inline): boolean {
  return inline.kind !== 'anchor' && !(inline.kind === 'text' && inline.text.trim() === '');
}
