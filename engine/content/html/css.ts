import { parse, generate, walk } from '../css-syntax.js';
import type { CssNode } from 'css-tree';
import { selectAll } from 'css-select';
import type { Document, Element } from 'domhandler';
import { RendererBoundError } from '../../errors.js';
import { pushAll } from '../../push-all.js';

export type Declarations = Array<[string, string]>;

/** Declarations each element gets from `<style>` rules, in cascade order (specificity, then source). */
export type SheetRules = Map<Element, Declarations>;

/** Selector matching costs rules × elements: past this a region's style sheets are refused. */
const MAX_MATCH_WORK = 2_000_000;

/** The declarations of a `style` attribute (or a rule's block). */
export function declarationList(css: string): Declarations {
  const out: Declarations = [];
  let ast: CssNode;
  try {
    ast = parse(css, { context: 'declarationList', parseValue: false });
  } catch {
    return out;
  }
  walk(ast, {
    visit: 'Declaration',
    enter(node) {
      out.push([node.property.toLowerCase(), generate(node.value).trim()]);
    },
  });
  return out;
}

/**
 * Applies the `<style>` elements of one HTML region to that region only. Selectors are matched
 * with css-select; a rule's place in the cascade is its specificity, then its order.
 */
export function applyStyleSheets(document: Document, sheets: readonly string[], elementCount: number): SheetRules {
  const rules: Array<{ selector: string; specificity: number; order: number; declarations: Declarations }> = [];
  for (const css of sheets) {
    let ast: CssNode;
    try {
      ast = parse(css, { parseValue: false, parseAtrulePrelude: false });
    } catch {
      continue;
    }
    walk(ast, {
      visit: 'Rule',
      enter(rule) {
        // Rules inside @media and other at-rules are left out: a PDF page is not a screen.
        if (this.atrule || rule.prelude.type !== 'SelectorList') return;
        const declarations = declarationList(generate(rule.block).slice(1, -1));
        rule.prelude.children.forEach((selector) => {
          rules.push({ selector: generate(selector), specificity: specificity(selector), order: rules.length, declarations });
        });
      },
    });
  }
  if (rules.length * elementCount > MAX_MATCH_WORK) {
    throw new RendererBoundError('ElementLimit', `an HTML block has more than ${MAX_MATCH_WORK} style rule matches to try`);
  }
  rules.sort((a, b) => a.specificity - b.specificity || a.order - b.order);
  const applied: SheetRules = new Map();
  for (const rule of rules) {
    let matched: Element[];
    try {
      matched = selectAll(rule.selector, document) as unknown as Element[];
    } catch {
      continue;
    }
    for (const element of matched) {
      const list = applied.get(element) ?? [];
      pushAll(list, rule.declarations);
      applied.set(element, list);
    }
  }
  return applied;
}

/** CSS specificity (ids, classes and attributes and pseudo-classes, types) packed in one number. */
function specificity(selector: CssNode): number {
  let ids = 0;
  let classes = 0;
  let types = 0;
  walk(selector, (node) => {
    if (node.type === 'IdSelector') ids++;
    else if (node.type === 'ClassSelector' || node.type === 'AttributeSelector' || node.type === 'PseudoClassSelector') classes++;
    else if ((node.type === 'TypeSelector' && node.name !== '*') || node.type === 'PseudoElementSelector') types++;
  });
  return ids * 1_000_000 + classes * 1_000 + types;
}
