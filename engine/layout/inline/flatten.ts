import { NO_MARKS, type Inline, type Link } from '../../document/types.js';
import type { InlineObject } from './objects.js';
import type { Tagger, StructId } from '../structure.js';
import type { Palette } from '../../style/palette.js';
import { styleFor, type BaseStyle, type RunStyle, type StyleTags } from './run-style.js';

/** A stretch of the paragraph's text in one style, or one embedded object. */
export interface Span {
  start: number;
  end: number;
  style: RunStyle;
  object: InlineObject | null;
}

export interface FlatText {
  text: string;
  spans: Span[];
  /** Link targets by the offset in `text` where they stand. */
  anchors: FlatAnchor[];
}

export interface FlatAnchor {
  offset: number;
  name: string;
}

export const OBJECT_CHAR = '\ufffc';
const CODE_MARKS = { ...NO_MARKS, code: true };
export const FORCED_BREAK = '\u2028';

/**
 * Inline content → one string and its style spans. Whitespace collapses as in HTML (soft
 * breaks become spaces); a hard break becomes U+2028; images become U+FFFC. Links and code
 * spans get their own structure elements under the paragraph's.
 */
export function flattenInlines(
  inlines: readonly Inline[],
  base: BaseStyle,
  palette: Palette,
  tagger: Tagger,
  tag: StructId | null,
  preserveSpaces: boolean,
): FlatText {
  const spans: Span[] = [];
  const anchors: FlatAnchor[] = [];
  let text = '';
  const linkTags = new Map<Link, StructId | null>();
  const codeTags = new Map<object, StructId | null>();
  const linkTagFor = (link: Link | null): StructId | null => {
    if (!link) return null;
    if (!linkTags.has(link)) linkTags.set(link, tagger.add('Link', tag));
    return linkTags.get(link)!;
  };
  /** Text goes in its paragraph, or in a Link, or in a Code element (inside its Link, if any). */
  const tagsFor = (link: Link | null, code: object | null): StyleTags => {
    const linkTag = linkTagFor(link);
    const parent = linkTag ?? tag;
    if (!code) return { link, linkTag, tag: parent };
    if (!codeTags.has(code)) codeTags.set(code, tagger.add('Code', parent));
    return { link, linkTag, tag: codeTags.get(code)! };
  };
  const plain: StyleTags = { link: null, linkTag: null, tag };
  const push = (value: string, style: RunStyle, object: InlineObject | null) => {
    if (value.length === 0) return;
    spans.push({ start: text.length, end: text.length + value.length, style, object });
    text += value;
  };

  for (const inline of inlines) {
    switch (inline.kind) {
      case 'text': {
        const collapsed = preserveSpaces ? inline.text : collapseSpaces(inline.text, text.length === 0 || /[ \u2028]$/.test(text));
        const style = styleFor(inline.marks, base, palette, tagsFor(inline.link, inline.code));
        push(collapsed, inline.color && !inline.link ? { ...style, color: inline.color } : style, null);
        break;
      }
      case 'break':
        text = text.replace(/ $/, '');
        if (spans.length > 0) spans.at(-1)!.end = Math.min(spans.at(-1)!.end, text.length);
        push(FORCED_BREAK, styleFor(NO_MARKS, base, palette, plain), null);
        break;
      case 'footnote-ref': {
        const link: Link = { target: { kind: 'internal', dest: inline.dest }, description: `footnote ${inline.number}`, footnote: inline.number };
        push(String(inline.number), styleFor({ ...NO_MARKS, sup: true }, base, palette, tagsFor(link, null)), null);
        break;
      }
      case 'image': {
        const tags = tagsFor(inline.link, null);
        const figure = tagger.add('Figure', tags.tag, { alt: inline.alt || 'image' });
        push(OBJECT_CHAR, styleFor(NO_MARKS, base, palette, { ...tags, tag: figure }), { kind: 'image', image: inline.image, alt: inline.alt });
        break;
      }
      case 'drawing': {
        const role = inline.role;
        // An emoji in a code span is sized, tinted and tagged with the span.
        const code = role.kind === 'text' ? role.code : null;
        const tags = tagsFor(inline.link, code);
        const element = role.kind === 'text' ? tagger.add('Span', tags.tag, { actualText: role.text }) : tagger.add(role.kind, tags.tag, { alt: inline.alt });
        push(OBJECT_CHAR, styleFor(code ? CODE_MARKS : NO_MARKS, base, palette, { ...tags, tag: element }), {
          kind: 'drawing',
          drawing: inline.drawing,
          role,
          alt: inline.alt,
        });
        break;
      }
      case 'anchor':
        anchors.push({ offset: text.length, name: inline.name });
        break;
    }
  }
  return preserveSpaces ? { text, spans, anchors } : trimEnd({ text, spans, anchors });
}

/** White space a text may need collapsed: anything but single spaces (most texts have none). */
const COLLAPSIBLE = /[\t\n\r]| {2}/;

function collapseSpaces(value: string, afterSpace: boolean): string {
  const collapsed = COLLAPSIBLE.test(value) ? value.replace(/[ \t\n\r]+/g, ' ') : value;
  return afterSpace && collapsed.startsWith(' ') ? collapsed.slice(1) : collapsed;
}

function trimEnd(flat: FlatText): FlatText {
  const trimmed = flat.text.replace(/ +$/, '');
  const spans = flat.spans.map((span) => ({ ...span, end: Math.min(span.end, trimmed.length) })).filter((span) => span.end > span.start);
  return { text: trimmed, spans, anchors: flat.anchors };
}
