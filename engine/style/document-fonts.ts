/** The bundled families the text and headings are set in: Source Serif 4 or Source Sans 3. */
export interface DocumentFonts {
  text: FontFamily;
  heading: FontFamily;
}

export type FontFamily = 'serif' | 'sans';
const FONT_FAMILIES: readonly FontFamily[] = ['serif', 'sans'];
/** Code has one bundled family; `mono` may name it and nothing else. */
const MONO_FAMILY = 'mono';

export const FONTS_EXPECTED = `serif or sans, or a map of body and heading (each serif or sans) and mono (${MONO_FAMILY})`;

/** `fonts: sans` (text and headings), or `{body, heading, mono}` with the families given (the rest serif). */
export function parseFonts(value: unknown): DocumentFonts | null {
  const family = (name: unknown): FontFamily | null =>
    typeof name === 'string' && (FONT_FAMILIES as readonly string[]).includes(name.trim().toLowerCase()) ? (name.trim().toLowerCase() as FontFamily) : null;
  if (typeof value === 'string') {
    const both = family(value);
    return both === null ? null : { text: both, heading: both };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const roles = value as Record<string, unknown>;
  if (Object.keys(roles).some((role) => !['body', 'heading', 'mono'].includes(role))) return null;
  if (roles.mono !== undefined && roles.mono !== MONO_FAMILY) return null;
  const text = roles.body === undefined ? 'serif' : family(roles.body);
  const heading = roles.heading === undefined ? text : family(roles.heading);
  return text === null || heading === null ? null : { text, heading };
}
