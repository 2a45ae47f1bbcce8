/**
 * Markdown → Typst markup, for comparing with Typst's compiler on the same content (Debian's
 * Pandoc 2.17 has no Typst writer). Parsed by Quire's own parser, then written for the constructs
 * real READMEs and manuals use: headings, paragraphs, emphasis, code, lists, quotes, tables,
 * links, footnotes, rules. Pictures become their alt text (neither side loads them in the bench),
 * formulas and raw HTML their source as code. The page is set up like Quire's default look (A4,
 * its measure, the same faces at 10.5 pt on about 14.5 pt, justified), so the two make about as
 * many pages.
 */
import type { Nodes, Parents, Root, RootContent } from 'mdast';
import { parseMarkdown } from '#engine/parse/markdown.js';
import { DEFAULT_FEATURES, DEFAULT_BOUNDS } from '#engine/options.js';

const PREAMBLE = [
  // Quire's page: its centred 34.5 em measure, 22 mm above and below, the page number at the foot.
  '#set page(paper: "a4", margin: (x: (595.28pt - 34.5 * 10.5pt) / 2, y: 22mm), numbering: "1")',
  '#set text(font: "Source Serif 4", size: 10.5pt, lang: "en")',
  '#set par(justify: true, leading: 4pt + 0.3em, spacing: 1.2em)',
  '#set block(spacing: 1.2em)',
  '#set list(spacing: 0.9em)',
  '#set enum(spacing: 0.9em)',
  '#show heading: set text(weight: "semibold")',
  '#show heading: set block(above: 1.8em, below: 0.9em)',
  '#show raw: set text(font: "JetBrains Mono")',
  '#show raw.where(block: true): set text(size: 8.75pt)',
  '#show raw.where(block: true): block.with(fill: luma(246), inset: (x: 8pt, y: 7pt), width: 100%)',
  '',
].join('\n');

export function markdownToTypst(markdown: string): string {
  const { tree } = parseMarkdown(markdown, DEFAULT_FEATURES, DEFAULT_BOUNDS);
  const notes = footnoteDefinitions(tree);
  return PREAMBLE + blocks(tree.children, notes);
}

type Notes = Map<string, RootContent[]>;

function footnoteDefinitions(tree: Root): Notes {
  const notes: Notes = new Map();
  for (const node of tree.children) if (node.type === 'footnoteDefinition') notes.set(node.identifier, node.children);
  return notes;
}

function blocks(nodes: readonly RootContent[], notes: Notes): string {
  return nodes
    .map((node) => block(node, notes))
    .filter((text) => text !== '')
    .join('\n\n');
}

function block(node: RootContent, notes: Notes): string {
  switch (node.type) {
    case 'heading':
      return `${'='.repeat(node.depth)} ${inlines(node.children, notes)}`;
    case 'paragraph':
      return inlines(node.children, notes);
    case 'code':
      return rawBlock(node.value, node.lang ?? '');
    case 'list': {
      const items = node.children.map((item) => `[${blocks(item.children, notes)}]`).join(', ');
      return node.ordered ? `#enum(start: ${node.start ?? 1}, ${items})` : `#list(${items})`;
    }
    case 'blockquote':
      return `#quote(block: true)[${blocks(node.children, notes)}]`;
    case 'table': {
      const columns = Math.max(1, ...node.children.map((row) => row.children.length));
      const cells = node.children.flatMap((row) => row.children.map((cell) => `[${inlines(cell.children, notes)}]`));
      return `#table(columns: ${columns}, ${cells.join(', ')})`;
    }
    case 'thematicBreak':
      return '#line(length: 100%)';
    case 'html':
      return node.value.trim() === '' ? '' : rawBlock(node.value, 'html');
    case 'math':
      return rawBlock(node.value, 'tex');
    case 'footnoteDefinition':
      return '';
    default:
      return 'children' in node ? blocks((node as Parents).children as RootContent[], notes) : '';
  }
}

function inlines(nodes: readonly Nodes[], notes: Notes): string {
  return nodes.map((node) => inline(node, notes)).join('');
}

function inline(node: Nodes, notes: Notes): string {
  switch (node.type) {
    case 'text':
      return escapeMarkup(node.value).replace(/\n/g, ' ');
    case 'emphasis':
      return `#emph[${inlines(node.children, notes)}]`;
    case 'strong':
      return `#strong[${inlines(node.children, notes)}]`;
    case 'delete':
      return `#strike[${inlines(node.children, notes)}]`;
    case 'inlineCode':
      return `#raw(${JSON.stringify(node.value)})`;
    case 'inlineMath':
      return `#raw(${JSON.stringify(node.value)})`;
    case 'break':
      return ' \\\n';
    case 'link':
      return `#link(${JSON.stringify(node.url)})[${inlines(node.children, notes)}]`;
    case 'image':
      return escapeMarkup(node.alt ?? '');
    case 'html':
      return '';
    case 'footnoteReference': {
      const note = notes.get(node.identifier);
      return note ? `#footnote[${blocks(note, notes)}]` : '';
    }
    default:
      return 'children' in node ? inlines((node as Parents).children as Nodes[], notes) : '';
  }
}

/** A fence longer than any run of backticks inside. */
function rawBlock(code: string, lang: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${/^[\w+-]+$/.test(lang) ? lang : ''}\n${code.replace(/\n$/, '')}\n${fence}`;
}

/** Every character Typst markup gives a meaning, escaped. */
function escapeMarkup(text: string): string {
  return text.replace(/[\\*_`$#@<>[\]~=/+\-'"]/g, (character) => `\\${character}`);
}
