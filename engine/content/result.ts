import type { Theme } from '../style/theme.js';
import type { Drawing } from '../drawing/drawing.js';

/** What a content module makes of its source: a drawing with its text alternative, or why not. */
export type ContentResult = { ok: true; drawing: Drawing; alt: string; caption?: string | null } | { ok: false; reason: string };

export interface ContentOptions {
  theme: Theme;
  signal: AbortSignal | undefined;
}
