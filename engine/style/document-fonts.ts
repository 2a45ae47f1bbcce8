/**
 * The families a document's text, headings and code are set in: bundled (`serif`, Source Serif 4;
 * `sans`, Source Sans 3; `mono`, JetBrains Mono) or registered for the render (the library's
 * `fonts` option, `quire render --font`), each named by its family key.
 */
export interface DocumentFonts {
  text: string;
  heading: string;
  mono: string;
}

/** The bundled text families, and the one bundled code family. */
const TEXT_FAMILIES: readonly string[] = ['serif', 'sans'];
const MONO_FAMILY = 'mono';
/** Names a registered family may not take: the bundled ones. */
export const BUNDLED_FAMILIES: readonly string[] = [...TEXT_FAMILIES, MONO_FAMILY];

/**
 * The families registered for a render, by key (familyKey of the name), with the name as
 * registered, for messages. A document may choose them for any role.
 */
export type RegisteredFamilies = ReadonlyMap<string, string>;
export const NO_REGISTERED_FAMILIES: RegisteredFamilies = new Map();

/** How family names compare: case and runs of spaces do not matter (`Source  Code pro` is `source code pro`). */
export function familyKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

export const DEFAULT_FONTS: Readonly<DocumentFonts> = Object.freeze({ text: 'serif', heading: 'serif', mono: MONO_FAMILY });

/** What `fonts` may be, for the message that refuses a value. */
export function fontsExpected(registered: RegisteredFamilies = NO_REGISTERED_FAMILIES): string {
  if (registered.size === 0) return `serif or sans, or a map of body and heading (each serif or sans) and mono (${MONO_FAMILY})`;
  const names = [...registered.values()].map((name) => JSON.stringify(name)).join(', ');
  return `serif, sans or a registered family (${names}), or a map of body, heading and mono (each one of those; mono also ${MONO_FAMILY})`;
}

/**
 * `fonts: sans` (text and headings), `fonts: Inter` (a registered family, text and headings), or
 * `{body, heading, mono}` with the families given (body serif, heading as body, mono `mono`
 * unless given); null for a value that is none of these or names a family not registered.
 */
export function parseFonts(value: unknown, registered: RegisteredFamilies = NO_REGISTERED_FAMILIES): DocumentFonts | null {
  const family = (name: unknown, bundled: readonly string[]): string | null => {
    if (typeof name !== 'string') return null;
    const key = familyKey(name);
    return bundled.includes(key) || registered.has(key) ? key : null;
  };
  if (typeof value === 'string') {
    const both = family(value, TEXT_FAMILIES);
    return both === null ? null : { text: both, heading: both, mono: MONO_FAMILY };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const roles = value as Record<string, unknown>;
  if (Object.keys(roles).some((role) => !['body', 'heading', 'mono'].includes(role))) return null;
  const text = roles.body === undefined ? 'serif' : family(roles.body, TEXT_FAMILIES);
  const heading = roles.heading === undefined ? text : family(roles.heading, TEXT_FAMILIES);
  const mono = roles.mono === undefined ? MONO_FAMILY : family(roles.mono, [MONO_FAMILY]);
  return text === null || heading === null || mono === null ? null : { text, heading, mono };
}
