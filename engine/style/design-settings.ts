import { parseLength } from './lengths.js';
import { parseHexColor, type Color } from './color.js';
import { NAMED_PAPERS, parsePaper, sheetSize, type PaperSize } from './paper.js';
import { PAGE_NUMBER_STYLES, type PageNumberStyle } from './page-numbers.js';
import { DEFAULT_FOOTER, NO_LINE, readRunningLine, type RunningLine } from './running-lines.js';
import { parseMargins, MARGINS_EXPECTED, type Margins } from './margins.js';
import { DEFAULT_FONTS, fontsExpected, NO_REGISTERED_FAMILIES, parseFonts, type DocumentFonts, type RegisteredFamilies } from './document-fonts.js';
import type { SettingFailure } from './setting-failure.js';
import { COLUMNS_EXPECTED, DEFAULT_COLUMN_GAP, parseColumns, type Columns } from './columns.js';

export type Orientation = 'portrait' | 'landscape';
export type { DocumentFonts, RegisteredFamilies } from './document-fonts.js';
export type { Margins } from './margins.js';
export type { Columns } from './columns.js';
export type { SettingFailure } from './setting-failure.js';
export { settingMessage } from './setting-failure.js';

/**
 * How a document is designed: page, running lines, numbering, title page, watermark. Read from
 * front matter (and the library's `design` option, which front matter overrides), validated once,
 * read by build and layout. Lengths are in points.
 */
export interface DesignSettings {
  paper: PaperSize;
  orientation: Orientation;
  /** Null keeps Quire's own margins: a centred measure of about 72 characters. */
  margin: Margins | null;
  numberHeadings: boolean;
  header: RunningLine;
  footer: RunningLine;
  /** Draw the header on the first page too (it usually holds the title). */
  headerFirstPage: boolean;
  pageNumbers: PageNumberStyle;
  watermark: string | null;
  titlePage: boolean;
  /** Where the title page's picture loads from (through the resource loader). */
  coverImage: string | null;
  /** The body text's size in points (8–14); leading, headings, code, margins' text block and furniture follow it. */
  fontSize: number;
  /** The body in one column or two (a leading title block and contents span both). */
  columns: Columns;
  /** The families of the text, the headings and code: bundled, or registered for the render. */
  fonts: DocumentFonts;
  /** Links and headings in this colour (made readable on the page if it is not). Null: the theme's. */
  accent: Color | null;
}

/** The theme's body size (the default look: 10.5 pt on 14.5 pt leading). */
export const DEFAULT_FONT_SIZE = 10.5;
const SMALLEST_FONT_SIZE = 8;
const LARGEST_FONT_SIZE = 14;

export const DEFAULT_DESIGN: Readonly<DesignSettings> = Object.freeze({
  paper: NAMED_PAPERS.a4!,
  orientation: 'portrait',
  margin: null,
  numberHeadings: false,
  header: NO_LINE,
  footer: DEFAULT_FOOTER,
  headerFirstPage: false,
  pageNumbers: 'arabic',
  watermark: null,
  titlePage: false,
  coverImage: null,
  fontSize: DEFAULT_FONT_SIZE,
  columns: { count: 1, gap: DEFAULT_COLUMN_GAP } as Columns,
  fonts: DEFAULT_FONTS,
  accent: null,
});

const LONGEST_WATERMARK = 40;

/** The keys readDesign reads, as front matter writes them. */
export const DESIGN_KEYS = [
  'paper',
  'orientation',
  'margin',
  'number_headings',
  'header',
  'footer',
  'header_first_page',
  'page_numbers',
  'watermark',
  'title_page',
  'cover_image',
  'font_size',
  'columns',
  'fonts',
  'accent',
] as const;

/**
 * The design keys of a front matter (or `design` option) record; other keys are not read here.
 * `fonts` may name the families `registered` for the render besides the bundled ones.
 */
export function readDesign(
  record: Readonly<Record<string, unknown>>,
  fail: SettingFailure,
  registered: RegisteredFamilies = NO_REGISTERED_FAMILIES,
): Partial<DesignSettings> {
  const out: Partial<DesignSettings> = {};
  const has = (key: string) => record[key] !== undefined && record[key] !== null;
  if (has('paper'))
    out.paper =
      parsePaper(record.paper) ?? fail('paper', record.paper, 'a4, a5, letter, legal or [width, height] with units (mm, cm, in, pt) between 1 in and 200 in');
  if (has('orientation')) out.orientation = oneOf<Orientation>(record, 'orientation', ['portrait', 'landscape'], fail);
  if (has('margin')) out.margin = parseMargins(record.margin) ?? fail('margin', record.margin, MARGINS_EXPECTED);
  if (has('number_headings')) out.numberHeadings = flag(record, 'number_headings', fail);
  if (has('header')) out.header = readRunningLine(record.header, 'header', fail);
  if (has('footer')) out.footer = readRunningLine(record.footer, 'footer', fail);
  if (has('header_first_page')) out.headerFirstPage = flag(record, 'header_first_page', fail);
  if (has('page_numbers')) out.pageNumbers = oneOf(record, 'page_numbers', PAGE_NUMBER_STYLES, fail);
  if (has('watermark')) {
    const text = typeof record.watermark === 'string' || typeof record.watermark === 'number' ? String(record.watermark).trim() : null;
    if (text === null || text.length === 0 || text.length > LONGEST_WATERMARK || /\n/.test(text))
      fail('watermark', record.watermark, `one line of text of at most ${LONGEST_WATERMARK} characters`);
    out.watermark = text;
  }
  if (has('title_page')) out.titlePage = flag(record, 'title_page', fail);
  if (has('cover_image')) {
    if (typeof record.cover_image !== 'string' || record.cover_image.trim() === '') fail('cover_image', record.cover_image, 'the path or URL of an image');
    out.coverImage = record.cover_image.trim();
  }
  if (has('font_size')) {
    const size = parseLength(record.font_size);
    if (size === null || size < SMALLEST_FONT_SIZE || size > LARGEST_FONT_SIZE)
      fail('font_size', record.font_size, `a size in points from ${SMALLEST_FONT_SIZE} to ${LARGEST_FONT_SIZE}`);
    out.fontSize = size;
  }
  if (has('columns')) out.columns = parseColumns(record.columns) ?? fail('columns', record.columns, COLUMNS_EXPECTED);
  if (has('fonts')) out.fonts = parseFonts(record.fonts, registered) ?? fail('fonts', record.fonts, fontsExpected(registered));
  if (has('accent')) out.accent = parseHexColor(record.accent) ?? fail('accent', record.accent, 'a colour written #rrggbb or #rgb');
  return out;
}

/**
 * The design keys of `given` (front matter holds others too) with Quire's defaults where none was
 * given; `fail` names a margin that leaves no room for text on the sheet.
 */
export function resolveDesign(given: Partial<DesignSettings>, fail: SettingFailure): DesignSettings {
  const design = { ...DEFAULT_DESIGN };
  for (const key of Object.keys(DEFAULT_DESIGN) as (keyof DesignSettings)[]) {
    if (given[key] !== undefined) Object.assign(design, { [key]: given[key] });
  }
  const { margin } = design;
  if (margin !== null) {
    const sheet = sheetSize(design);
    if (sheet.width - margin.left - margin.right < SMALLEST_TEXT_BLOCK || sheet.height - margin.top - margin.bottom < SMALLEST_TEXT_BLOCK) {
      const mm = (points: number) => `${Math.round((points * 25.4) / 72)}mm`;
      fail(
        'margin',
        `${mm(margin.top)} ${mm(margin.right)} ${mm(margin.bottom)} ${mm(margin.left)}`,
        `margins that leave at least 1 in of the ${mm(sheet.width)} × ${mm(sheet.height)} page for text`,
      );
    }
  }
  return design;
}

/** The least text block, each way, that margins must leave. */
const SMALLEST_TEXT_BLOCK = 72;

function flag(record: Readonly<Record<string, unknown>>, key: string, fail: SettingFailure): boolean {
  const value = record[key];
  // `--set key=true` hands text; YAML hands a boolean.
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return fail(key, value, 'true or false');
}

function oneOf<T extends string>(record: Readonly<Record<string, unknown>>, key: string, allowed: readonly T[], fail: SettingFailure): T {
  const value = record[key];
  const text = typeof value === 'string' ? value.trim().toLowerCase() : null;
  if (text !== null && (allowed as readonly string[]).includes(text)) return text as T;
  return fail(key, value, allowed.join(' or '));
}
