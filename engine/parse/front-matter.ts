import { parse as parseYaml, YAMLParseError } from 'yaml';
import { FrontMatterError } from '../errors.js';
import { THEMES, validateLanguage, type Theme } from '../options.js';

export type Paper = 'a4' | 'letter';

/** The front matter keys Quire reads; every other key is ignored and never printed. */
export interface FrontMatter {
  title?: string;
  subtitle?: string;
  /** One author, or several in order. */
  authors?: string[];
  /** As written: a date, or any text ("Spring 2026"). */
  date?: string;
  language?: string;
  theme?: Theme;
  paper?: Paper;
  toc?: boolean;
  /** Deepest heading level the contents list (1–6). */
  tocDepth?: number;
}

export interface SplitSource {
  frontMatter: FrontMatter;
  /** The Markdown after the front matter (the whole document when there is none). */
  body: string;
}

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^(---|\.\.\.)[ \t]*$/m;

/**
 * Splits YAML front matter from the Markdown. It opens with `---` on the first line and ends
 * at the first `---` or `...` line (as Pandoc reads it). A block that is not `key: value`
 * pairs was never front matter but Markdown (a thematic break, a setext heading) and stays.
 */
export function splitFrontMatter(markdown: string): SplitSource {
  const opening = OPENING.exec(markdown);
  if (!opening) return { frontMatter: {}, body: markdown };
  const rest = markdown.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { frontMatter: {}, body: markdown };
  const yaml = rest.slice(0, closing.index);
  if (!looksLikeYaml(yaml)) return { frontMatter: {}, body: markdown };
  const data = yaml.trim() === '' ? {} : parse(yaml);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { frontMatter: {}, body: markdown };
  const afterClosing = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  return { frontMatter: readKeys(data as Record<string, unknown>), body: afterClosing };
}

/** A block of `key: value` lines is meant as front matter; anything else was Markdown. */
function looksLikeYaml(value: string): boolean {
  return value.trim() === '' || /^[\w"'-][^\n:]*:(\s|$)/m.test(value);
}

function readKeys(record: Record<string, unknown>): FrontMatter {
  const result: FrontMatter = {};
  if (record.title !== undefined) result.title = scalarText(record.title, 'title');
  if (record.subtitle !== undefined) result.subtitle = scalarText(record.subtitle, 'subtitle');
  if (record.author !== undefined) {
    const authors = Array.isArray(record.author) ? record.author : [record.author];
    result.authors = authors.map((author) => scalarText(author, 'author'));
  }
  if (record.date !== undefined) result.date = record.date instanceof Date ? record.date.toISOString().slice(0, 10) : scalarText(record.date, 'date');
  if (record.language !== undefined) {
    try {
      result.language = validateLanguage(scalarText(record.language, 'language'));
    } catch (error) {
      throw new FrontMatterError(`language: ${(error as Error).message}`);
    }
  }
  if (record.theme !== undefined) {
    if (!THEMES.includes(record.theme as Theme)) throw new FrontMatterError('theme must be light or dark');
    result.theme = record.theme as Theme;
  }
  if (record.paper !== undefined) {
    const paper = String(record.paper).toLowerCase();
    if (paper !== 'a4' && paper !== 'letter') throw new FrontMatterError('paper must be a4 or letter');
    result.paper = paper;
  }
  if (record.toc !== undefined) {
    if (typeof record.toc !== 'boolean') throw new FrontMatterError('toc must be true or false');
    result.toc = record.toc;
  }
  if (record.toc_depth !== undefined) {
    if (!Number.isInteger(record.toc_depth) || (record.toc_depth as number) < 1 || (record.toc_depth as number) > 6) {
      throw new FrontMatterError(`toc_depth must be a whole number from 1 to 6, not ${JSON.stringify(record.toc_depth)}`);
    }
    result.tocDepth = record.toc_depth as number;
  }
  return result;
}

function parse(yaml: string): unknown {
  try {
    return parseYaml(yaml, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const line = error.linePos?.[0]?.line;
      // +1: the opening `---` is line 1 of the document.
      throw new FrontMatterError(error.message.split('\n')[0]!, line === undefined ? undefined : line + 1);
    }
    throw new FrontMatterError((error as Error).message);
  }
}

function scalarText(value: unknown, key: string): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new FrontMatterError(`${key} must be text`);
}
