import { FrontMatterError, InvalidOptionError } from '../errors.js';
import { THEMES, type Theme } from '../style/theme.js';
import { validateLanguage } from '../options.js';
import { readDesign, settingMessage, type DesignSettings, type RegisteredFamilies, type SettingFailure } from '../style/design-settings.js';
import { NO_REGISTERED_FAMILIES } from '../style/document-fonts.js';
import { unknownKeyWarnings } from './front-matter-keys.js';

/** The front matter keys Quire reads; every other key is ignored (named in a warning) and never printed on the page. */
export interface FrontMatter extends Partial<DesignSettings> {
  title?: string;
  subtitle?: string;
  /** One author, or several in order. */
  authors?: string[];
  /** As written: a date, or any text ("Spring 2026"). */
  date?: string;
  language?: string;
  theme?: Theme;
  toc?: boolean;
  /** Deepest heading level the contents list (1–6). */
  tocDepth?: number;
}

export interface SplitSource {
  frontMatter: FrontMatter;
  /** The Markdown after the front matter (the whole document when there is none). */
  body: string;
  /** Keys the front matter holds that Quire does not read, each with its line. */
  warnings: string[];
}

const OPENING = /^---[ \t]*\r?\n/;

/**
 * The YAML parser, loaded by the first document that opens as front matter does: most have no
 * front matter, and the parser is a fifth of the engine's code, ~5 ms of a cold render to load.
 */
let yamlParser: typeof import('yaml') | undefined;

/** Loads the YAML parser when one of `markdowns` may open with front matter; splitFrontMatter needs it then. */
export async function loadYamlFor(markdowns: readonly string[]): Promise<void> {
  if (yamlParser === undefined && markdowns.some((markdown) => OPENING.test(markdown))) yamlParser = await import('yaml');
}
const CLOSING = /^(---|\.\.\.)[ \t]*$/m;

/**
 * Splits YAML front matter from the Markdown. It opens with `---` on the first line and ends
 * at the first `---` or `...` line (as Pandoc reads it). A block that is not `key: value`
 * pairs was never front matter but Markdown (a thematic break, a setext heading) and stays.
 */
export function splitFrontMatter(markdown: string, registered: RegisteredFamilies = NO_REGISTERED_FAMILIES): SplitSource {
  const none = { frontMatter: {}, body: markdown, warnings: [] };
  const opening = OPENING.exec(markdown);
  if (!opening) return none;
  const rest = markdown.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return none;
  const yaml = rest.slice(0, closing.index);
  if (!looksLikeYaml(yaml)) return none;
  const data = yaml.trim() === '' ? {} : parse(yaml);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return none;
  const afterClosing = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  const record = data as Record<string, unknown>;
  const lineOf = (key: string) => keyLine(yaml, key);
  return {
    frontMatter: readFrontMatter(record, frontMatterFailure(lineOf), registered),
    body: afterClosing,
    warnings: unknownKeyWarnings(record, 'front matter', lineOf),
  };
}

/**
 * The document line of a top-level `key:` in the front matter's YAML (the opening `---` is line
 * 1), or undefined when it is written in a way this does not find (a flow map, a complex key).
 */
function keyLine(yaml: string, key: string): number | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`^(?:${escaped}|"${escaped}"|'${escaped}')[ \\t]*:`, 'm').exec(yaml);
  if (!found) return undefined;
  return lineNumberAt(yaml, found.index) + 1;
}

/** The 1-based line of `offset` in `text`. */
function lineNumberAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** A block of `key: value` lines is meant as front matter; anything else was Markdown. */
function looksLikeYaml(value: string): boolean {
  return value.trim() === '' || /^[\w"'-][^\n:]*:(\s|$)/m.test(value);
}

/** A bad value in the front matter: the document is at fault, at the key's line. */
function frontMatterFailure(lineOf: (key: string) => number | undefined): SettingFailure {
  return (key, value, expected) => {
    // `footer.left` is written under `footer:`.
    const topLevel = key.split('.')[0]!;
    throw new FrontMatterError(settingMessage(key, value, expected), lineOf(topLevel), undefined, key);
  };
}

/**
 * The keys Quire reads from a front matter record (or the library's `design` option, which holds
 * the same keys); `fail` names a bad one with its value. `fonts` may name the `registered` families.
 */
export function readFrontMatter(
  record: Readonly<Record<string, unknown>>,
  fail: SettingFailure,
  registered: RegisteredFamilies = NO_REGISTERED_FAMILIES,
): FrontMatter {
  const result: FrontMatter = readDesign(record, fail, registered);
  if (record.title !== undefined) result.title = scalarText(record.title, 'title', fail);
  if (record.subtitle !== undefined) result.subtitle = scalarText(record.subtitle, 'subtitle', fail);
  if (record.author !== undefined) {
    const authors = Array.isArray(record.author) ? record.author : [record.author];
    result.authors = authors.map((author) => scalarText(author, 'author', fail));
  }
  if (record.date !== undefined) result.date = record.date instanceof Date ? record.date.toISOString().slice(0, 10) : scalarText(record.date, 'date', fail);
  if (record.language !== undefined) {
    try {
      result.language = validateLanguage(scalarText(record.language, 'language', fail));
    } catch (error) {
      if (!(error instanceof InvalidOptionError)) throw error;
      fail('language', record.language, 'a BCP 47 tag such as "en" or "de-CH"');
    }
  }
  if (record.theme !== undefined) {
    if (!THEMES.includes(record.theme as Theme)) fail('theme', record.theme, 'light or dark');
    result.theme = record.theme as Theme;
  }
  if (record.toc !== undefined) {
    if (record.toc !== true && record.toc !== false && record.toc !== 'true' && record.toc !== 'false') fail('toc', record.toc, 'true or false');
    result.toc = record.toc === true || record.toc === 'true';
  }
  if (record.toc_depth !== undefined) {
    const depth = typeof record.toc_depth === 'string' && /^\d$/.test(record.toc_depth) ? Number(record.toc_depth) : record.toc_depth;
    if (!Number.isInteger(depth) || (depth as number) < 1 || (depth as number) > 6) fail('toc_depth', record.toc_depth, 'a whole number from 1 to 6');
    result.tocDepth = depth as number;
  }
  return result;
}

function parse(yaml: string): unknown {
  if (yamlParser === undefined) throw new Error('front matter was read before loadYamlFor loaded the YAML parser');
  try {
    return yamlParser.parse(yaml, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    if (error instanceof yamlParser.YAMLParseError) {
      // Its own line and column (linePos) come only with prettyErrors, whose message spans lines.
      const offset = Math.min(error.pos[0], yaml.length);
      const line = lineNumberAt(yaml, offset);
      const column = offset - (offset === 0 ? 0 : yaml.lastIndexOf('\n', offset - 1) + 1) + 1;
      // +1: the opening `---` is line 1 of the document.
      throw new FrontMatterError(error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), line + 1, column);
    }
    throw new FrontMatterError((error as Error).message);
  }
}

function scalarText(value: unknown, key: string, fail: SettingFailure): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fail(key, value, 'text');
}
