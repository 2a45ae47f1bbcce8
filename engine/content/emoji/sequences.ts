/**
 * Emoji sequences as Unicode (UTS #51) builds them: a pictograph with an optional presentation
 * selector or skin-tone modifier, then tag characters (subdivision flags such as Scotland), joined
 * by ZWJ into one picture (families, professions); keycaps; regional-indicator pairs (flags).
 */
const ELEMENT = String.raw`[\p{Extended_Pictographic}\p{Emoji_Presentation}][\uFE0E\uFE0F]?\p{Emoji_Modifier}?[\u{E0020}-\u{E007E}]*\u{E007F}?`;
const SEQUENCE = new RegExp(String.raw`\p{Regional_Indicator}{2}|[0-9#*]\uFE0F?\u20E3|${ELEMENT}(?:\u200D${ELEMENT})*`, 'gu');
/**
 * Emoji by default: those Unicode presents as emoji, and pictographs beyond the BMP that are text
 * by default (🕵, 🕶, 🏳) but are often typed without VS16 and are in no text font.
 */
const DEFAULT_EMOJI = /^(?:\p{Emoji_Presentation}|(?=\p{Extended_Pictographic})[\u{10000}-\u{10FFFF}])/u;
/** Every emoji sequence holds a character outside ASCII. */
const ASCII = /^[\x00-\x7f]*$/;

export interface TextPart {
  emoji: boolean;
  text: string;
}

/**
 * Splits text into plain runs and emoji sequences (ZWJ sequences, skin tones, flags, keycaps).
 * A character that is text by default (©, ↔, ❤) stays text unless VS16 (U+FE0F) asks for emoji;
 * VS15 (U+FE0E) keeps any character text.
 */
export function splitEmoji(text: string): TextPart[] {
  if (ASCII.test(text)) return [{ emoji: false, text }];
  const parts: TextPart[] = [];
  let plainStart = 0;
  for (const match of text.matchAll(SEQUENCE)) {
    if (!isEmoji(match[0])) continue;
    if (match.index > plainStart) parts.push({ emoji: false, text: text.slice(plainStart, match.index) });
    parts.push({ emoji: true, text: match[0] });
    plainStart = match.index + match[0].length;
  }
  if (plainStart < text.length) parts.push({ emoji: false, text: text.slice(plainStart) });
  return parts;
}

function isEmoji(sequence: string): boolean {
  if (sequence.includes('\uFE0E')) return false;
  return DEFAULT_EMOJI.test(sequence) || [...sequence].length > 1;
}
