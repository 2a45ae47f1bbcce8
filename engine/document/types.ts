import type { Features } from '../options.js';
import type { Theme } from '../style/theme.js';
import type { DesignSettings } from '../style/design-settings.js';
import type { ResourceOutcome } from '../resources/outcome.js';
import type { ImageResource } from '../resources/image.js';
import type { Drawing } from '../drawing/drawing.js';
import type { Color } from '../style/color.js';
import type { AlertKind } from '../style/alert-kinds.js';

/** Quire's own document tree: what to typeset, with resources loaded and references resolved. */
export interface QuireDocument {
  meta: DocumentMeta;
  blocks: Block[];
  /** Footnote definitions, numbered in the order of their first reference. */
  footnotes: FootnoteDefinition[];
  features: Features;
  resources: ResourceOutcome;
  warnings: string[];
  /** The Markdown as given, for `embed_source`. */
  source: string;
}

export interface DocumentMeta {
  title: string | undefined;
  language: string | undefined;
  theme: Theme;
  design: DesignSettings;
  /** The front matter's date as written, for `{date}` in headers and footers. */
  displayDate: string | undefined;
  /** The id of the heading that is the document's title (a lone leading H1, no front matter title): no section. */
  titleHeading: string | null;
  toc: boolean;
  author: string | undefined;
  subject: string | undefined;
  keywords: string | undefined;
  date: Date;
}

export interface Marks {
  bold: boolean;
  italic: boolean;
  code: boolean;
  strike: boolean;
  sup: boolean;
  sub: boolean;
  /** From HTML: `<u>`, `<kbd>` (a key cap) and `<mark>` (a highlight). */
  underline?: boolean;
  kbd?: boolean;
  highlight?: boolean;
  /** Source that could not be typeset (TeX), drawn in the theme's error colour. */
  error?: boolean;
}

export const NO_MARKS: Readonly<Marks> = Object.freeze({
  bold: false,
  italic: false,
  code: false,
  strike: false,
  sup: false,
  sub: false,
});

export type LinkTarget = { kind: 'uri'; uri: string } | { kind: 'internal'; dest: string };

/** One link, shared by every inline inside it, so its pieces become one Link structure element. */
export interface Link {
  target: LinkTarget;
  /** What a screen reader announces for the link annotation. */
  description: string;
  /** Set when the link is a footnote reference: the footnote's number. */
  footnote?: number;
}

export type Inline =
  | {
      kind: 'text';
      text: string;
      marks: Marks;
      link: Link | null;
      /** The same object for every piece of one code span (one Code element). */
      code: object | null;
      /** A colour of its own (highlighted code, HTML), instead of the surrounding text's. */
      color?: Color;
    }
  | { kind: 'break' }
  | { kind: 'footnote-ref'; number: number; dest: string }
  | { kind: 'image'; image: ImageResource; alt: string; link: Link | null }
  | { kind: 'drawing'; drawing: Drawing; role: DrawingRole; alt: string; link: Link | null }
  /** A link target written in HTML (`<a name>`, an element's `id`): a destination where it stands. */
  | Anchor;

/** A named place a `#name` link lands on, written in HTML; between blocks it lands on the content that follows. */
export interface Anchor {
  kind: 'anchor';
  name: string;
}

/**
 * How a drawing is read: a Figure or a Formula with its alternative text, or text drawn as a
 * picture (an emoji) that extracts as its characters.
 */
export type DrawingRole =
  | { kind: 'Figure' }
  | { kind: 'Formula' }
  | { kind: 'text'; text: string /** The code span it sits in (its Code element), null outside code. */; code: object | null };

export type Align = 'left' | 'right' | 'center' | null;

export type Block =
  /** `align` from HTML (`<p align="center">`, `text-align`); null or absent follows the theme. */
  | { kind: 'paragraph'; content: Inline[]; align?: Align }
  /** `unnumbered`: written `{-}`, left out of `number_headings`. */
  | {
      kind: 'heading';
      level: HeadingLevel;
      content: Inline[];
      id: string;
      text: string;
      align?: Align;
      unnumbered?: boolean /** Given by `number_headings` (then also leading `content` and `text`). */;
      number?: string;
    }
  | {
      kind: 'code';
      text: string;
      language: string | null /** Tokens per line, when highlighted or holding emoji. */;
      lines: HighlightedLine[] | null;
      note: string | null;
    }
  /** `alert` marks a GitHub alert (`> [!NOTE]`), drawn in its kind's colour under its title. */
  | { kind: 'quote'; children: Block[]; alert: AlertKind | null }
  | { kind: 'list'; ordered: boolean; start: number; tight: boolean; items: ListItem[] }
  | { kind: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] }
  | { kind: 'rule' }
  /** What follows starts a new page. */
  | { kind: 'page-break' }
  | { kind: 'figure'; image: ImageResource; alt: string; caption: string | null; link: Link | null }
  | { kind: 'toc'; entries: TocEntry[] }
  /** The front matter's title block, at the top of the first page; `id` is its anchor when it took a leading H1's. */
  | {
      kind: 'title';
      title: Inline[];
      subtitle: Inline[] | null /** One line, the authors in order. */;
      authors: Inline[] | null;
      date: Inline[] | null;
      id: string | null /** A picture below the title (`cover_image`). */;
      cover: ImageResource | null /** `title_page`: alone on the first page. */;
      ownPage: boolean;
    }
  /** A formula, diagram or barcode on its own line; `appendix` repeats it on a page of its own. */
  | { kind: 'drawing'; drawing: Drawing; role: 'Figure' | 'Formula'; alt: string; caption: string | null; appendix: boolean }
  | Anchor
  /** Where a file joined into the document starts: a new page, named `dest`, a top entry of the outline. */
  | { kind: 'part'; dest: string; title: string };

/** A line of code as tokens; an emoji is a token of its own, with its drawing. */
export type HighlightedLine = Array<{ text: string; color: Color | null; bold?: boolean; italic?: boolean; emoji?: Drawing }>;

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export interface ListItem {
  /** null for an ordinary item; true/false for a task item. */
  checked: boolean | null;
  children: Block[];
}

export interface FootnoteDefinition {
  number: number;
  dest: string;
  blocks: Block[];
}

export interface TocEntry {
  level: HeadingLevel;
  /** The heading's number (`number_headings`), linked to it, set in a column of its own; null for none. */
  number: Inline[] | null;
  /** The heading's text without its number, linked to it, emoji drawn. */
  content: Inline[];
  dest: string;
}
