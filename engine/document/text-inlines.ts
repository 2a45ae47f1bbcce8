import { emojiDrawing, splitEmoji } from '../content/emoji/index.js';
import type { Color } from '../style/color.js';
import type { Inline, Link, Marks } from './types.js';

/** How a text inline is set; `code` is the code span it belongs to (one Code element), null outside code. */
export interface TextSetting {
  marks: Marks;
  link: Link | null;
  code: object | null;
  color: Color | null;
}

/**
 * Text as inlines; with `emoji` on, each emoji in it is a colour drawing that extracts as its
 * characters — in prose, code and HTML alike, since no text font has them and as text they would
 * be boxes.
 */
export async function textInlines(text: string, setting: TextSetting, emoji: boolean): Promise<Inline[]> {
  const { marks, link, code, color } = setting;
  const textInline = (value: string): Inline => ({ kind: 'text', text: value, marks, link, code, ...(color ? { color } : {}) });
  if (!emoji) return [textInline(text)];
  const out: Inline[] = [];
  for (const part of splitEmoji(text)) {
    const drawing = part.emoji ? await emojiDrawing(part.text) : null;
    out.push(drawing ? { kind: 'drawing', drawing, role: { kind: 'text', text: part.text, code }, alt: part.text, link } : textInline(part.text));
  }
  return out;
}
