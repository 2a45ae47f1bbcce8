import { formulaNotTypeset } from './drawing-failure.js';
import type { PhrasingContent } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import type { BuildContext } from './context.js';
import { NO_MARKS, type Inline, type Link, type Marks } from './types.js';
import { replaceShortcodes } from '../content/emoji/index.js';
import { textInlines } from './text-inlines.js';
import { pushAll } from '../push-all.js';
import { renderMath } from '../content/math/index.js';

/** mdast phrasing content → Quire inlines with marks, links and loaded images. */
export async function buildInlines(nodes: PhrasingContent[], context: BuildContext): Promise<Inline[]> {
  const out: Inline[] = [];
  await appendInlines(nodes, NO_MARKS, null, context, out);
  return out;
}

async function appendInlines(nodes: PhrasingContent[], marks: Marks, link: Link | null, context: BuildContext, out: Inline[]): Promise<void> {
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    switch (node.type) {
      case 'text':
        await appendText(node.value, marks, link, context, out);
        break;
      case 'emphasis':
        await appendInlines(node.children, { ...marks, italic: true }, link, context, out);
        break;
      case 'strong':
        await appendInlines(node.children, { ...marks, bold: true }, link, context, out);
        break;
      case 'delete':
        await appendInlines(node.children, { ...marks, strike: true }, link, context, out);
        break;
      case 'inlineCode':
        await appendCode(node.value, marks, link, context, out);
        break;
      case 'inlineMath':
        out.push(await inlineMath(node.value, marks, link, context));
        break;
      case 'break':
        out.push({ kind: 'break' });
        break;
      case 'link':
        await appendLinked(node.url, node.children, marks, link, context, out);
        break;
      case 'linkReference': {
        const definition = context.definitions.get(node.identifier);
        if (definition) await appendLinked(definition.url, node.children, marks, link, context, out);
        else await appendInlines(node.children, marks, link, context, out);
        break;
      }
      case 'image':
        await appendImage(node.url, node.alt ?? '', link, context, out);
        break;
      case 'imageReference': {
        const definition = context.definitions.get(node.identifier);
        if (definition) await appendImage(definition.url, node.alt ?? '', link, context, out);
        break;
      }
      case 'footnoteReference': {
        const footnote = context.footnotes.reference(node.identifier);
        if (footnote) out.push({ kind: 'footnote-ref', number: footnote.number, dest: footnote.dest });
        break;
      }
      case 'html': {
        // Inline HTML opens here and may close after Markdown: `<kbd>`, text, `</kbd>`.
        const { htmlRegionLength, regionInlines } = await import('../content/html/index.js');
        const length = htmlRegionLength(nodes, i, htmlOf);
        const region = { nodes: nodes.slice(i, i + length), htmlOf };
        const inlines = await regionInlines(region, marks, link, context, async (inner, innerMarks, innerLink) => {
          const built: Inline[] = [];
          await appendInlines([inner], innerMarks, innerLink, context, built);
          return built;
        });
        pushAll(out, inlines);
        i += length - 1;
        break;
      }
      default:
        context.warn(`unsupported inline ${(node as { type: string }).type} left out`);
    }
  }
}

async function appendLinked(url: string, children: PhrasingContent[], marks: Marks, outer: Link | null, context: BuildContext, out: Inline[]): Promise<void> {
  const link = outer ?? context.links.resolve(url, plainText({ type: 'paragraph', children }));
  await appendInlines(children, marks, link, context, out);
}

async function appendImage(url: string, alt: string, link: Link | null, context: BuildContext, out: Inline[]): Promise<void> {
  if (!context.features.images) return;
  const image = await context.resources.loadImage(url);
  if (image) out.push({ kind: 'image', image, alt, link });
}

/** Text with `:shortcodes:` replaced and emoji drawn in colour, when the switch is on. */
async function appendText(value: string, marks: Marks, link: Link | null, context: BuildContext, out: Inline[]): Promise<void> {
  const { emoji } = context.features;
  pushAll(out, await textInlines(emoji ? await replaceShortcodes(value) : value, { marks, link, code: null, color: null }, emoji));
}

/** A code span: shortcodes stay as typed, but a typed emoji is drawn as in text (no code face has it). */
async function appendCode(value: string, marks: Marks, link: Link | null, context: BuildContext, out: Inline[]): Promise<void> {
  pushAll(out, await textInlines(value, { marks: { ...marks, code: true }, link, code: {}, color: null }, context.features.emoji));
}

/** `$…$`: a formula on the baseline, or its source in red when TeX cannot set it. */
async function inlineMath(tex: string, marks: Marks, link: Link | null, context: BuildContext): Promise<Inline> {
  const result = await renderMath(tex, { ...context.contentOptions, display: false });
  if (result.ok) return { kind: 'drawing', drawing: result.drawing, role: { kind: 'Formula' }, alt: result.alt, link };
  context.warn(formulaNotTypeset(tex, result.reason));
  return { kind: 'text', text: tex, marks: { ...marks, code: true, error: true }, link, code: {} };
}

function htmlOf(node: PhrasingContent): string | null {
  return node.type === 'html' ? node.value : null;
}
