import { parse as parseCss, generate, walk } from '../css-syntax.js';
import { selectAll } from 'css-select';
import type { Document, Element } from 'domhandler';
import type { Color } from '../../style/color.js';
import { parseColor, resolveVars, type Rgba } from './css-values.js';
import { pushAll } from '../../push-all.js';

/** Properties that inherit down the tree, resolved as the walker descends. */
export interface InheritedStyle {
  fill: string;
  fillOpacity: number;
  fillRule: 'nonzero' | 'evenodd';
  stroke: string;
  strokeWidth: number;
  strokeOpacity: number;
  strokeCap: 'butt' | 'round' | 'square';
  strokeJoin: 'miter' | 'round' | 'bevel';
  strokeDash: number[] | null;
  color: Rgba | null;
  fontSize: number;
  fontWeight: number;
  fontStyle: 'normal' | 'italic';
  monospace: boolean;
  textAnchor: 'start' | 'middle' | 'end';
  visible: boolean;
  /** Group opacity, multiplied into fill and stroke opacity (an approximation without groups). */
  opacity: number;
  customProperties: ReadonlyMap<string, string>;
}

export const INITIAL_STYLE: InheritedStyle = {
  fill: 'black',
  fillOpacity: 1,
  fillRule: 'nonzero',
  stroke: 'none',
  strokeWidth: 1,
  strokeOpacity: 1,
  strokeCap: 'butt',
  strokeJoin: 'miter',
  strokeDash: null,
  color: { color: [0, 0, 0], alpha: 1 },
  fontSize: 16,
  fontWeight: 400,
  fontStyle: 'normal',
  monospace: false,
  textAnchor: 'start',
  visible: true,
  opacity: 1,
  customProperties: new Map(),
};

const PROPERTIES = new Set([
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'color',
  'font-size',
  'font-weight',
  'font-style',
  'font-family',
  'text-anchor',
  'display',
  'visibility',
  'opacity',
  'font',
]);

/** Declarations that apply to each element from `<style>` sheets, in source order. */
export type SheetDeclarations = Map<Element, Array<[string, string]>>;

/** Reads every `<style>` element, matching its rules against the document (specificity aside). */
export function readStyleSheets(document: Document, styles: string[]): SheetDeclarations {
  const applied: SheetDeclarations = new Map();
  for (const css of styles) {
    let ast: ReturnType<typeof parseCss>;
    try {
      ast = parseCss(css, { parseValue: false, parseAtrulePrelude: false });
    } catch {
      continue;
    }
    walk(ast, {
      visit: 'Rule',
      enter(rule) {
        if (rule.prelude.type !== 'SelectorList') return;
        const selector = generate(rule.prelude);
        const declarations: Array<[string, string]> = [];
        walk(rule.block, {
          visit: 'Declaration',
          enter(declaration) {
            declarations.push([declaration.property.toLowerCase(), generate(declaration.value).trim()]);
          },
        });
        let matched: Element[];
        try {
          matched = selectAll(selector, document) as unknown as Element[];
        } catch {
          return;
        }
        for (const element of matched) {
          const list = applied.get(element) ?? [];
          pushAll(list, declarations);
          applied.set(element, list);
        }
      },
    });
  }
  return applied;
}

/** The element's own declarations: presentation attributes, then sheet rules, then `style`. */
export function declarationsOf(element: Element, sheets: SheetDeclarations): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(element.attribs)) if (PROPERTIES.has(name)) out.push([name, value]);
  pushAll(out, sheets.get(element) ?? []);
  const inline = element.attribs.style;
  if (inline) {
    for (const part of inline.split(';')) {
      const colon = part.indexOf(':');
      if (colon > 0) out.push([part.slice(0, colon).trim().toLowerCase(), part.slice(colon + 1).trim()]);
    }
  }
  return out;
}

/** Applies declarations over the parent's inherited style. */
export function cascade(parent: InheritedStyle, declarations: Array<[string, string]>): InheritedStyle {
  const style: InheritedStyle = { ...parent, opacity: parent.opacity };
  const custom = new Map(parent.customProperties);
  for (const [name, value] of declarations) if (name.startsWith('--')) custom.set(name, value);
  style.customProperties = custom;
  for (const [name, raw] of declarations) {
    if (name.startsWith('--')) continue;
    const value = resolveVars(raw.replace(/\s*!important\s*$/, ''), custom).trim();
    applyProperty(style, name, value, parent);
  }
  return style;
}

function applyProperty(style: InheritedStyle, name: string, value: string, parent: InheritedStyle): void {
  const number = Number.parseFloat(value);
  switch (name) {
    case 'fill':
      style.fill = value;
      break;
    case 'stroke':
      style.stroke = value;
      break;
    case 'fill-opacity':
      if (!Number.isNaN(number)) style.fillOpacity = value.endsWith('%') ? number / 100 : number;
      break;
    case 'stroke-opacity':
      if (!Number.isNaN(number)) style.strokeOpacity = value.endsWith('%') ? number / 100 : number;
      break;
    case 'opacity':
      if (!Number.isNaN(number)) style.opacity = parent.opacity * (value.endsWith('%') ? number / 100 : number);
      break;
    case 'fill-rule':
      style.fillRule = value === 'evenodd' ? 'evenodd' : 'nonzero';
      break;
    case 'stroke-width':
      if (!Number.isNaN(number)) style.strokeWidth = number;
      break;
    case 'stroke-linecap':
      if (value === 'round' || value === 'square' || value === 'butt') style.strokeCap = value;
      break;
    case 'stroke-linejoin':
      if (value === 'round' || value === 'bevel' || value === 'miter') style.strokeJoin = value;
      break;
    case 'stroke-dasharray': {
      const dashes = value
        .split(/[\s,]+/)
        .map(Number.parseFloat)
        .filter((n) => Number.isFinite(n) && n >= 0);
      style.strokeDash = value === 'none' || dashes.length === 0 || dashes.every((n) => n === 0) ? null : dashes;
      break;
    }
    case 'color':
      style.color = parseColor(value, parent.color) ?? parent.color;
      break;
    case 'font-size':
      if (!Number.isNaN(number))
        style.fontSize = value.endsWith('em') ? number * parent.fontSize : value.endsWith('%') ? (number / 100) * parent.fontSize : number;
      break;
    case 'font-weight':
      style.fontWeight = value === 'bold' || value === 'bolder' ? 700 : value === 'normal' ? 400 : Number.isNaN(number) ? style.fontWeight : number;
      break;
    case 'font-style':
      style.fontStyle = value === 'italic' || value === 'oblique' ? 'italic' : 'normal';
      break;
    case 'font-family':
      style.monospace = /mono|courier|consolas|menlo/i.test(value);
      break;
    case 'text-anchor':
      if (value === 'start' || value === 'middle' || value === 'end') style.textAnchor = value;
      break;
    case 'display':
      if (value === 'none') style.visible = false;
      break;
    case 'visibility':
      style.visible = value !== 'hidden' && value !== 'collapse';
      break;
  }
}

/** A paint value as a colour, or null for none; gradients and patterns come through `lookup`. */
export function paintColor(value: string, style: InheritedStyle, lookup: (id: string) => Rgba | null): Rgba | null {
  const url = /^url\(\s*['"]?#([^'")]+)['"]?\s*\)(.*)$/.exec(value);
  if (url) return lookup(url[1]!) ?? (url[2]!.trim() ? parseColor(url[2]!.trim(), style.color) : null);
  return parseColor(value, style.color);
}

export function withAlpha(paint: Rgba | null, opacity: number): { color: Color; opacity: number } | null {
  if (!paint) return null;
  const total = paint.alpha * opacity;
  return total <= 0 ? null : { color: paint.color, opacity: total };
}
