import type { SettingFailure } from './setting-failure.js';

/** A header or footer: a template for each third of the line, or nothing there. */
export interface RunningLine {
  left: string | null;
  center: string | null;
  right: string | null;
}

export const RUNNING_SLOTS = ['left', 'center', 'right'] as const;

export const PLACEHOLDERS = ['title', 'author', 'date', 'section', 'page', 'pages'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export type PlaceholderValues = Readonly<Record<Placeholder, string>>;

const PLACEHOLDER = /\{(\w+)\}/g;

/** The placeholders a template names that Quire does not know (`{chapter}`), for a clear error. */
export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

/** A template with its placeholders filled in. */
export function fillTemplate(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as Placeholder] : whole));
}

/** Today's footer: the page number, centred. */
export const DEFAULT_FOOTER: RunningLine = { left: null, center: '{page}', right: null };
export const NO_LINE: RunningLine = { left: null, center: null, right: null };

const LONGEST_TEMPLATE = 200;
const TEMPLATE_EXPECTED = `text, false, or left/center/right templates of at most ${LONGEST_TEMPLATE} characters using ${PLACEHOLDERS.map((name) => `{${name}}`).join(' ')}`;

/** `footer: "{page} of {pages}"` (centred), `footer: false` (none), or a map of left/center/right templates. */
export function readRunningLine(value: unknown, key: string, fail: SettingFailure): RunningLine {
  if (value === false || value === 'false' || value === '') return NO_LINE;
  const slots: Record<string, unknown> =
    typeof value === 'string'
      ? { center: value }
      : value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : fail(key, value, TEMPLATE_EXPECTED);
  const line: RunningLine = { ...NO_LINE };
  for (const [slot, template] of Object.entries(slots)) {
    const name = slot === 'centre' ? 'center' : slot;
    if (!(RUNNING_SLOTS as readonly string[]).includes(name)) fail(`${key}.${slot}`, template, 'left, center or right');
    if (template === null || template === false || template === '') continue;
    if (typeof template !== 'string' && typeof template !== 'number') fail(`${key}.${slot}`, template, TEMPLATE_EXPECTED);
    const text = String(template);
    if (text.length > LONGEST_TEMPLATE || /\n/.test(text)) fail(`${key}.${slot}`, template, TEMPLATE_EXPECTED);
    const unknown = unknownPlaceholders(text);
    if (unknown.length > 0)
      fail(`${key}.${slot}`, template, `a template using only ${PLACEHOLDERS.map((placeholder) => `{${placeholder}}`).join(' ')} (unknown: {${unknown[0]}})`);
    line[name as keyof RunningLine] = text;
  }
  return line;
}
