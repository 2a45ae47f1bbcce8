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
