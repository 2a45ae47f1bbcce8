import type { Element } from 'domhandler';
import type { Align, Marks } from '../../document/types.js';
import type { Color } from '../../style/color.js';
import { parseColor } from '../svg/css-values.js';
import { declarationList, type SheetRules } from './css.js';

/** What an element passes to its content: marks, a colour, an alignment, whether it shows. */
export interface Look {
  marks: Marks;
  color: Color | null;
  align: Align;
  hidden: boolean;
}

const TAG_MARKS: Record<string, Partial<Marks>> = {
  b: { bold: true },
  strong: { bold: true },
  i: { italic: true },
  em: { italic: true },
  cite: { italic: true },
  var: { italic: true },
  dfn: { italic: true },
  address: { italic: true },
  u: { underline: true },
  ins: { underline: true },
  s: { strike: true },
  strike: { strike: true },
  del: { strike: true },
  code: { code: true },
  tt: { code: true },
  samp: { code: true },
  kbd: { kbd: true },
  mark: { highlight: true },
  sup: { sup: true },
  sub: { sub: true },
  summary: { bold: true },
  dt: { bold: true },
  th: { bold: true },
};

const ALIGNS: Record<string, Align> = { left: 'left', start: 'left', right: 'right', end: 'right', center: 'center', middle: 'center', justify: null };

/** The look of `element`'s content: its tag's meaning, its attributes, then its CSS. */
export function lookOf(element: Element, parent: Look, sheets: SheetRules): Look {
  const marks: Marks = { ...parent.marks, ...TAG_MARKS[element.name] };
  let color = parent.color;
  let align = element.name === 'center' ? 'center' : parent.align;
  let hidden = element.attribs.hidden !== undefined;
  if (element.attribs.align) align = ALIGNS[element.attribs.align.toLowerCase()] ?? align;
  if (element.name === 'font' && element.attribs.color) color = parseColor(element.attribs.color)?.color ?? color;
  const declarations = [...(sheets.get(element) ?? []), ...declarationList(element.attribs.style ?? '')];
  for (const [name, raw] of declarations) {
    const value = raw.toLowerCase().trim();
    switch (name) {
      case 'color':
        color = parseColor(value)?.color ?? color;
        break;
      case 'font-weight':
        marks.bold = value === 'bold' || value === 'bolder' || Number(value) >= 600;
        break;
      case 'font-style':
        marks.italic = value === 'italic' || value === 'oblique';
        break;
      case 'text-decoration':
      case 'text-decoration-line':
        marks.underline = value.includes('underline');
        marks.strike = value.includes('line-through');
        break;
      case 'text-align':
        align = ALIGNS[value] ?? align;
        break;
      case 'vertical-align':
        marks.sup = value === 'super';
        marks.sub = value === 'sub';
        break;
      case 'font-family':
        marks.code = /mono|courier|consolas|menlo/.test(value);
        break;
      case 'display':
        hidden = value === 'none';
        break;
      case 'visibility':
        hidden = value === 'hidden' || value === 'collapse';
        break;
    }
  }
  return { marks, color, align, hidden };
}
