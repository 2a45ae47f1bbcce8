import { parseLength } from './lengths.js';
import { parseHexColor, type Rgb } from './contrast.js';
import { NAMED_PAPERS, parsePaper, sheetSize, type PaperSize } from './paper.js';
import { PAGE_NUMBER_STYLES, type PageNumberStyle } from './page-numbers.js';
import { DEFAULT_FOOTER, NO_LINE, PLACEHOLDERS, RUNNING_SLOTS, unknownPlaceholders, type RunningLine } from './running-lines.js';

export type Orientation = 'portrait' | 'landscape';

/** The bundled families the text and headings are set in: Source Serif 4 or Source Sans 3. */
export interface DocumentFonts {
  text: FontFamily;
  heading: FontFamily;
}

export type FontFamily = 'serif' | 'sans';
const FONT_FAMILIES: readonly FontFamily[] = ['serif', 'sans'];
/** Code has one bundled family; `mono` may name it and nothing else. */
const MONO_FAMILY = 'mono';

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

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
  /** The bundled families of the text and the headings. */
  fonts: DocumentFonts;
  /** Links and headings in this colour (made readable on the page if it is not). Null: the theme's. */
  accent: Rgb | null;
}

/** The theme's body size (TYPOGRAPHY.md: 10.5 pt on 14.5 pt leading). */
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
  fonts: { text: 'serif', heading: 'serif' } as DocumentFonts,
  accent: null,
});

/** Called with the key, its value and what it should be; throws the caller's own error. */
export type SettingFailure = (key: string, value: unknown, expected: string) => never;

/** The message every bad setting gets: the key, what it takes, and the value it was given. */
export function settingMessage(key: string, value: unknown, expected: string): string {
  return `${key} must be ${expected}, not ${shown(value)}`;
}

function shown(value: unknown): string {
  const text = value instanceof Date ? value.toISOString().slice(0, 10) : JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

const LONGEST_WATERMARK = 40;
const LONGEST_TEMPLATE = 200;

/** The design keys of a front matter (or `design` option) record; other keys are not read here. */
export function readDesign(record: Readonly<Record<string, unknown>>, fail: SettingFailure): Partial<DesignSettings> {
  const out: Partial<DesignSettings> = {};
  const has = (key: string) => record[key] !== undefined && record[key] !== null;
  if (has('paper')) out.paper = parsePaper(record.paper) ?? fail('paper', record.paper, 'a4, a5, letter, legal or [width, height] with units (mm, cm, in, pt) between 1 in and 200 in');
  if (has('orientation')) out.orientation = oneOf<Orientation>(record, 'orientation', ['portrait', 'landscape'], fail);
  if (has('margin')) out.margin = margins(record.margin) ?? fail('margin', record.margin, 'a length such as 20mm, up to four lengths (top right bottom left), or top/right/bottom/left');
  if (has('number_headings')) out.numberHeadings = flag(record, 'number_headings', fail);
  if (has('header')) out.header = runningLine(record, 'header', fail);
  if (has('footer')) out.footer = runningLine(record, 'footer', fail);
  if (has('header_first_page')) out.headerFirstPage = flag(record, 'header_first_page', fail);
  if (has('page_numbers')) out.pageNumbers = oneOf(record, 'page_numbers', PAGE_NUMBER_STYLES, fail);
  if (has('watermark')) {
    const text = typeof record.watermark === 'string' || typeof record.watermark === 'number' ? String(record.watermark).trim() : null;
    if (text === null || text.length === 0 || text.length > LONGEST_WATERMARK || /\n/.test(text)) fail('watermark', record.watermark, `one line of text of at most ${LONGEST_WATERMARK} characters`);
    out.watermark = text;
  }
  if (has('title_page')) out.titlePage = flag(record, 'title_page', fail);
  if (has('cover_image')) {
    if (typeof record.cover_image !== 'string' || record.cover_image.trim() === '') fail('cover_image', record.cover_image, 'the path or URL of an image');
    out.coverImage = record.cover_image.trim();
  }
  if (has('font_size')) {
    const size = parseLength(record.font_size);
    if (size === null || size < SMALLEST_FONT_SIZE || size > LARGEST_FONT_SIZE) fail('font_size', record.font_size, `a size in points from ${SMALLEST_FONT_SIZE} to ${LARGEST_FONT_SIZE}`);
    out.fontSize = size;
  }
  if (has('fonts')) out.fonts = documentFonts(record.fonts) ?? fail('fonts', record.fonts, `serif or sans, or a map of body and heading (each serif or sans) and mono (${MONO_FAMILY})`);
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
      fail('margin', `${mm(margin.top)} ${mm(margin.right)} ${mm(margin.bottom)} ${mm(margin.left)}`, `margins that leave at least 1 in of the ${mm(sheet.width)} × ${mm(sheet.height)} page for text`);
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

/** One length for all sides, CSS's one to four (`20mm 15mm`), or a map of the sides given (the rest Quire's own). */
function margins(value: unknown): Margins | null {
  if (typeof value === 'number') return margins(String(value));
  if (typeof value === 'string') {
    const lengths = value.trim().split(/\s+/).map(parseLength);
    if (lengths.length > 4 || lengths.some((length) => length === null)) return null;
    const [top, right = top, bottom = top, left = right] = lengths as number[];
    return { top: top!, right: right!, bottom: bottom!, left: left! };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const sides = value as Record<string, unknown>;
  if (Object.keys(sides).some((side) => !['top', 'right', 'bottom', 'left'].includes(side))) return null;
  const side = (name: string, fallback: number) => (sides[name] === undefined ? fallback : parseLength(sides[name]));
  const [top, right, bottom, left] = [side('top', DEFAULT_MARGIN), side('right', DEFAULT_MARGIN), side('bottom', DEFAULT_MARGIN), side('left', DEFAULT_MARGIN)];
  if (top === null || right === null || bottom === null || left === null) return null;
  return { top, right, bottom, left };
}

/** `fonts: sans` (text and headings), or `{body, heading, mono}` with the families given (the rest serif). */
function documentFonts(value: unknown): DocumentFonts | null {
  const family = (name: unknown): FontFamily | null => (typeof name === 'string' && (FONT_FAMILIES as readonly string[]).includes(name.trim().toLowerCase()) ? (name.trim().toLowerCase() as FontFamily) : null);
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

/** A side left out of a margin map: the 22 mm of Quire's own top margin. */
const DEFAULT_MARGIN = 22 * (72 / 25.4);

const TEMPLATE_EXPECTED = `text, false, or left/center/right templates of at most ${LONGEST_TEMPLATE} characters using ${PLACEHOLDERS.map((name) => `{${name}}`).join(' ')}`;

/** `footer: "{page} of {pages}"` (centred), `footer: false` (none), or a map of left/center/right templates. */
function runningLine(record: Readonly<Record<string, unknown>>, key: string, fail: SettingFailure): RunningLine {
  const value = record[key];
  if (value === false || value === 'false' || value === '') return NO_LINE;
  const slots: Record<string, unknown> = typeof value === 'string' ? { center: value } : value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : fail(key, value, TEMPLATE_EXPECTED);
  const line: RunningLine = { ...NO_LINE };
  for (const [slot, template] of Object.entries(slots)) {
    const name = slot === 'centre' ? 'center' : slot;
    if (!(RUNNING_SLOTS as readonly string[]).includes(name)) fail(`${key}.${slot}`, template, 'left, center or right');
    if (template === null || template === false || template === '') continue;
    if (typeof template !== 'string' && typeof template !== 'number') fail(`${key}.${slot}`, template, TEMPLATE_EXPECTED);
    const text = String(template);
    if (text.length > LONGEST_TEMPLATE || /\n/.test(text)) fail(`${key}.${slot}`, template, TEMPLATE_EXPECTED);
    const unknown = unknownPlaceholders(text);
    if (unknown.length > 0) fail(`${key}.${slot}`, template, `a template using only ${PLACEHOLDERS.map((placeholder) => `{${placeholder}}`).join(' ')} (unknown: {${unknown[0]}})`);
    line[name as keyof RunningLine] = text;
  }
  return line;
}
