import type { Root } from 'mdast';
import MarkdownIt, { type MarkdownIt as Parser } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import type { Features, RendererBounds } from '../options.js';
import { checkSourceDepth, checkTreeBounds } from './bounds.js';
import { gfmAutolinks } from './gfm-autolinks.js';
import { markAlerts } from './github-alerts.js';
import { readHeadingAttributes } from './heading-attributes.js';
import { splitFrontMatter, type FrontMatter } from './front-matter.js';
import { NO_REGISTERED_FAMILIES, type RegisteredFamilies } from '../style/document-fonts.js';
import { mathSyntax } from './math-syntax.js';
import { pageBreakSyntax } from './page-breaks.js';
import { applySmartTypography } from './smart-typography.js';
import { tokensToMdast } from './tokens-to-mdast.js';

export interface ParsedSource {
  markdown: string;
  tree: Root;
  frontMatter: FrontMatter;
  /** What the parse noticed for people: front matter keys Quire does not read. */
  warnings: string[];
}

/**
 * Markdown → mdast with the syntax the feature switches allow, bounded before and after parsing;
 * the front matter's `fonts` may name the families `registered` for the render.
 */
export function parseMarkdown(
  markdown: string,
  features: Features,
  bounds: RendererBounds,
  registered: RegisteredFamilies = NO_REGISTERED_FAMILIES,
): ParsedSource {
  checkSourceDepth(markdown, bounds.maxDepth);
  const { frontMatter, body, warnings } = splitFrontMatter(markdown, registered);
  const tokens = parserFor(features).parse(body, {});
  const tree = tokensToMdast(tokens, { tasks: features.tasks });
  markAlerts(tree);
  readHeadingAttributes(tree);
  checkTreeBounds(tree, bounds);
  if (features.smart_typography) applySmartTypography(tree);
  return { markdown, tree, frontMatter, warnings };
}

/** One configured parser per combination of the switches that change syntax. */
const parsers = new Map<string, Parser>();

function parserFor(features: Features): Parser {
  const key = [features.html_blocks, features.bare_autolinks, features.indented_code, features.math].join();
  let parser = parsers.get(key);
  if (!parser) {
    parser = createParser(features);
    parsers.set(key, parser);
  }
  return parser;
}

function createParser(features: Features): Parser {
  // CommonMark plus GitHub's tables and strikethrough; nesting is bounded before parsing.
  const parser = new MarkdownIt('commonmark', { html: features.html_blocks, linkify: features.bare_autolinks, maxNesting: 1000 });
  parser.enable(['table', 'strikethrough']);
  if (features.bare_autolinks) {
    parser.enable('linkify');
    parser.use(gfmAutolinks);
  }
  if (!features.indented_code) parser.disable('code');
  parser.use(footnote);
  parser.use(pageBreakSyntax);
  if (features.math) parser.use(mathSyntax);
  // Links are judged by the builder (which schemes a PDF may follow) and images by the loader.
  parser.validateLink = (url: string) => !/^\s*(javascript|vbscript):/i.test(url);
  return parser;
}
