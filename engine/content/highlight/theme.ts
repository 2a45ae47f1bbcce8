import type { Theme } from '../../style/theme.js';
import type { Color } from '../../style/color.js';

/** How one highlight.js scope is drawn; `color: null` is the code panel's own text colour. */
export interface TokenStyle {
  color: Color | null;
  bold?: boolean;
  italic?: boolean;
}

type Role =
  | 'keyword'
  | 'entity'
  | 'constant'
  | 'string'
  | 'variable'
  | 'comment'
  | 'tag'
  | 'heading'
  | 'list'
  | 'inserted'
  | 'deleted'
  | 'plain'
  | 'strong'
  | 'emphasis';

const hex = (value: number): Color => [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];

/**
 * GitHub's Primer syntax colours, the family Quire's palettes come from (code panels #f6f8fa and
 * #161b22). Each keeps WCAG AA contrast (4.5:1) on its panel: the light comment grey is Quire's
 * muted #59636e rather than Primer's older #6e7781 (4.3:1), and dark headings take the constant
 * blue rather than #1f6feb (3.7:1).
 */
const COLORS: Record<Theme, Record<Exclude<Role, 'plain' | 'strong' | 'emphasis'>, Color>> = {
  light: {
    keyword: hex(0xcf222e),
    entity: hex(0x8250df),
    constant: hex(0x0550ae),
    string: hex(0x0a3069),
    variable: hex(0x953800),
    comment: hex(0x59636e),
    tag: hex(0x116329),
    heading: hex(0x0550ae),
    list: hex(0x3b2300),
    inserted: hex(0x116329),
    deleted: hex(0x82071e),
  },
  dark: {
    keyword: hex(0xff7b72),
    entity: hex(0xd2a8ff),
    constant: hex(0x79c0ff),
    string: hex(0xa5d6ff),
    variable: hex(0xffa657),
    comment: hex(0x8b949e),
    tag: hex(0x7ee787),
    heading: hex(0x79c0ff),
    list: hex(0xf2cc60),
    inserted: hex(0xaff5b4),
    deleted: hex(0xffdcd7),
  },
};

/**
 * highlight.js scopes (dots for sub-scopes, as in `title.function_`) by role, after GitHub's
 * highlight.js theme. Scopes not named here take their enclosing span's style, as in CSS.
 */
const ROLES = new Map<string, Role>(
  Object.entries({
    keyword: 'keyword',
    doctag: 'keyword',
    'template-tag': 'keyword',
    'template-variable': 'keyword',
    type: 'keyword',
    'variable.language_': 'keyword',
    title: 'entity',
    'title.class_': 'entity',
    'title.function_': 'entity',
    attr: 'constant',
    attribute: 'constant',
    literal: 'constant',
    meta: 'constant',
    number: 'constant',
    operator: 'constant',
    variable: 'constant',
    'selector-attr': 'constant',
    'selector-class': 'constant',
    'selector-id': 'constant',
    regexp: 'string',
    string: 'string',
    built_in: 'variable',
    symbol: 'variable',
    comment: 'comment',
    code: 'comment',
    formula: 'comment',
    name: 'tag',
    quote: 'tag',
    'selector-tag': 'tag',
    'selector-pseudo': 'tag',
    subst: 'plain',
    section: 'heading',
    bullet: 'list',
    emphasis: 'emphasis',
    strong: 'strong',
    addition: 'inserted',
    deletion: 'deleted',
  } satisfies Record<string, Role>),
);

/** The style of a scope such as `title.class_.inherited__`, trying it and then its parents; null to inherit. */
export function scopeStyle(scope: string, theme: Theme): TokenStyle | null {
  for (let name = scope; name; name = name.slice(0, Math.max(0, name.lastIndexOf('.')))) {
    const role = ROLES.get(name);
    if (role) return roleStyle(role, theme);
  }
  return null;
}

function roleStyle(role: Role, theme: Theme): TokenStyle {
  switch (role) {
    case 'plain':
      return { color: null };
    case 'strong':
      return { color: null, bold: true };
    case 'emphasis':
      return { color: null, italic: true };
    case 'heading':
      return { color: COLORS[theme].heading, bold: true };
    default:
      return { color: COLORS[theme][role] };
  }
}

/** Every colour the themes use, for contrast checks. */
export function themeColors(theme: Theme): Color[] {
  return Object.values(COLORS[theme]);
}
