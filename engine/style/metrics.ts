import type { DesignSettings } from './design-settings.js';

/** Sizes in points. One place for the whole look: the default look (docs/markdown.md "Page design") in numbers. */
export const METRICS = {
  bodySize: 10.5,
  bodyLeading: 14.5,
  paragraphGap: 0.6 * 14.5,
  headingScale: [1.9, 1.5, 1.25, 1.1, 1.0, 1.0] as const,
  headingSpaceAbove: [1.6, 1.4, 1.2, 1.1, 1.0, 1.0] as const,
  headingSpaceBelow: 0.45,
  codeSize: 8.75,
  codeLeading: 11.75,
  codePadding: 6,
  inlineCodeScale: 0.9,
  /** `<kbd>` key caps: a little smaller than inline code, for their outline. */
  kbdScale: 0.82,
  smallSize: 8.75,
  smallLeading: 11.5,
  footerSize: 8.5,
  listIndent: 18,
  listLabelGap: 6,
  quoteIndent: 14,
  quoteRuleWidth: 2.25,
  /** Space inside an alert above its title and below its body, which its rule spans. */
  alertPadding: 4,
  /** An alert's icon, in ems of its title, and the space between icon and title. */
  alertIconSize: 1,
  alertIconGap: 5,
  tableCellPaddingX: 5,
  tableCellPaddingY: 3.5,
  ruleWidth: 0.6,
  scriptScale: 0.7,
  footnoteRuleLength: 72,
  /**
   * How far a code block may reach into each margin before it wraps: at the 72-character measure
   * a block widened by this holds 80 columns of code (most code is written to 80).
   */
  codeMarginReach: 34,
  footnoteGap: 10,
} as const;

/**
 * How much larger than the theme's the document's type is. Layout works at the theme's sizes on
 * a page this much smaller, and the laid-out pages are scaled up by it: every size, leading and
 * space follows the body size, and the page keeps its real size.
 */
export function typeScale(design: DesignSettings): number {
  return design.fontSize / METRICS.bodySize;
}
