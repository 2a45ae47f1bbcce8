import MarkdownIt from 'markdown-it';
import { parseDocument, DomUtils } from 'htmlparser2';
import type { ChildNode } from 'domhandler';
import GithubSlugger from 'github-slugger';

/** Fenced blocks drawn as pictures (formulas, diagrams, symbols), whose source is not text on the page. */
const DRAWN_FENCES = /^(?:math|mermaid|qr|barcode)\b/;
/** An ATX heading's trailing attributes (and the closing hashes before them), which Quire reads and drops. */
const HEADING_ATTRIBUTES = /^([ ]{0,3}#{1,6}[ \t].*?)(?:[ \t]+#+)?[ \t]*\{(?:[#.-][^{}\n]*|[\w-]+=[^{}\n]*)\}[ \t]*$/gm;
/** Elements whose content no reader sees as text: Quire leaves them out, as browsers do. */
const UNSEEN = new Set(['script', 'style', 'template', 'iframe', 'object', 'embed', 'form', 'input', 'select', 'textarea', 'noscript', 'svg', 'math']);
/** Elements that end a run of text (inline ones, `**G**itHub`, do not). */
const BREAKING = new Set([
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
  'br',
  'hr',
  'details',
  'summary',
  'section',
  'article',
  'header',
  'footer',
  'figure',
  'figcaption',
  'img',
  'picture',
]);

/**
 * The words a reader sees in a Markdown document, found by a reader other than Quire's:
 * markdown-it (CommonMark and tables) renders it to HTML and htmlparser2 reads the text out. Left
 * out: front matter, pictures' alternative text, drawn fences (math, diagrams, symbols), `$` math,
 * `:emoji:` shortcodes, Pandoc's heading attributes (`## Title {#id .class}`), and elements no
 * reader sees. Words are runs of three or more letters or
 * digits with a letter among them, lower-cased.
 */
export function sourceWords(markdown: string): Set<string> {
  const body = markdown.replace(/^---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)\r?\n/, '').replace(HEADING_ATTRIBUTES, '$1');
  const md = new MarkdownIt({ html: true, linkify: false }).enable(['table', 'strikethrough']);
  const defaultFence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, index, options, env, self) =>
    DRAWN_FENCES.test(tokens[index]!.info.trim()) ? '' : defaultFence(tokens, index, options, env, self);
  const html = md.render(body.replace(/\$\$[\s\S]*?\$\$|\$(?=\S)[^$\n]*?\S\$(?!\d)/g, ' ').replace(/:[a-z0-9_+-]+:/g, ' '));
  const document = parseDocument(html);
  const text: string[] = [];
  const visit = (nodes: readonly ChildNode[]) => {
    for (const node of nodes) {
      if (node.type === 'text') text.push(node.data);
      else if (node.type === 'tag' && UNSEEN.has(node.name)) continue;
      else if ('children' in node) {
        const breaking = node.type === 'tag' && BREAKING.has(node.name);
        if (breaking) text.push(' ');
        visit(node.children);
        if (breaking) text.push(' ');
      }
    }
  };
  visit(document.children);
  return words(text.join(''));
}

/** The words of extracted text, as `sourceWords` counts them. */
export function words(text: string): Set<string> {
  return new Set(
    text
      .normalize('NFC')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 3 && /\p{L}/u.test(word)),
  );
}

/**
 * Every anchor the document defines: its headings' GitHub slugs (from markdown-it's reading of
 * their text, without the tags of their HTML) and the `id` and `name` attributes of its HTML.
 */
export function sourceAnchors(markdown: string): Set<string> {
  const md = new MarkdownIt({ html: true });
  const anchors = new Set<string>();
  const slugger = new GithubSlugger();
  const tokens = md.parse(markdown.replace(/^---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)\r?\n/, ''), {});
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open')
      anchors.add(
        slugger.slug(
          tokens[index + 1]!.children!.filter((child) => child.type !== 'html_inline')
            .map((child) => child.content)
            .join(''),
        ),
      );
  });
  for (const element of DomUtils.findAll(() => true, parseDocument(md.render(markdown)).children)) {
    for (const name of ['id', 'name']) if (element.attribs[name]) anchors.add(element.attribs[name]!);
  }
  return anchors;
}
