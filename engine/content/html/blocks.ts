import type { ChildNode, Element } from 'domhandler';
import { codeBlock, tokenInline } from '../../document/code-blocks.js';
import { DomUtils } from 'htmlparser2';
import { NO_MARKS, type Align, type Block, type HeadingLevel, type Inline, type ListItem } from '../../document/types.js';
import type { HtmlEnv } from './env.js';
import { IGNORED, isBlockElement, textContent } from './elements.js';
import { htmlInlines } from './inlines.js';
import { lookOf, type Look } from './look.js';
import { pushAll } from '../../push-all.js';
import { PLACEHOLDER } from './region.js';
import { anchorsOf, anchorsWithin } from './anchors.js';
import { anchorsIn, shows } from '../../document/anchors.js';

/** HTML block content → Quire blocks; runs of inline content between blocks become paragraphs. */
export async function htmlBlocks(nodes: readonly ChildNode[], look: Look, env: HtmlEnv): Promise<Block[]> {
  const out: Block[] = [];
  let run: ChildNode[] = [];
  const flush = async () => {
    if (run.length === 0) return;
    pushAll(out, await paragraphOf(run, look, env));
    run = [];
  };
  for (const node of nodes) {
    if (node.type === 'tag' && node.name === PLACEHOLDER) {
      await flush();
      pushAll(out, aligned(await env.markdownBlocks(Number(node.attribs['data-index'])), look.align));
    } else if (node.type === 'tag' && isBlockElement(node.name)) {
      await flush();
      pushAll(out, await blockElement(node, look, env));
    } else {
      run.push(node);
    }
  }
  await flush();
  return out;
}

/** A block element, after anchors for its id; one not shown leaves only the anchors in it, where it would have been. */
async function blockElement(element: Element, parent: Look, env: HtmlEnv): Promise<Block[]> {
  if (IGNORED.has(element.name)) return anchorsWithin([element], env);
  const look = lookOf(element, parent, env.sheets);
  if (look.hidden) return anchorsWithin([element], env);
  return [...anchorsOf(element, env), ...(await blockContent(element, look, env))];
}

async function blockContent(element: Element, look: Look, env: HtmlEnv): Promise<Block[]> {
  const name = element.name;
  const heading = /^h([1-6])$/.exec(name);
  if (heading) {
    const content = await htmlInlines(element.children, look, null, env);
    const text = textContent(element).replace(/\s+/g, ' ').trim();
    if (!text && !content.some(shows)) return anchorsIn(content);
    return [{ kind: 'heading', level: Number(heading[1]) as HeadingLevel, content, id: env.headingId(), text, align: look.align }];
  }
  switch (name) {
    case 'hr':
      return [{ kind: 'rule' }];
    case 'pre': {
      // Markdown inside a <pre> is Markdown still, set in the code face.
      if (DomUtils.getElementsByTagName(PLACEHOLDER, element.children, true).length > 0)
        return htmlBlocks(element.children, { ...look, marks: { ...look.marks, code: true } }, env);
      const code = element.children.find((child): child is Element => child.type === 'tag' && child.name === 'code');
      const language =
        /(?:^|\s)(?:language|lang)-([\w+#-]+)/.exec(`${code?.attribs.class ?? ''} ${element.attribs.class ?? ''}`)?.[1] ?? element.attribs.lang ?? null;
      return [
        ...anchorsWithin(element.children, env),
        await codeBlock(textContent(element).replace(/^\n/, '').replace(/\n$/, ''), language, env.context.features, env.context.contentOptions),
      ];
    }
    case 'blockquote':
      return [{ kind: 'quote', children: await htmlBlocks(element.children, look, env), alert: null }];
    case 'ul':
    case 'ol':
      return [await list(element, look, env)];
    case 'table':
      return table(element, look, env);
    default:
      return htmlBlocks(element.children, look, env);
  }
}

/**
 * Inline content as a paragraph; a centred lone image (a README's logo) as a figure. Anchors in
 * content that shows nothing else, or in a figure, land on what follows.
 */
async function paragraphOf(nodes: readonly ChildNode[], look: Look, env: HtmlEnv): Promise<Block[]> {
  const content = trimBreaks(await htmlInlines(nodes, look, null, env));
  const meaningful = content.filter(shows);
  if (meaningful.length === 0) return anchorsIn(content);
  const only = meaningful.length === 1 ? meaningful[0] : undefined;
  if (only?.kind === 'image' && look.align === 'center')
    return [...anchorsIn(content), { kind: 'figure', image: only.image, alt: only.alt, caption: null, link: only.link }];
  return [{ kind: 'paragraph', content, align: look.align }];
}

async function list(element: Element, look: Look, env: HtmlEnv): Promise<Block> {
  const items: ListItem[] = [];
  for (const child of element.children) {
    if (child.type !== 'tag' || child.name !== 'li') continue;
    const itemLook = lookOf(child, look, env.sheets);
    if (!itemLook.hidden) items.push({ checked: null, children: [...anchorsOf(child, env), ...(await htmlBlocks(child.children, itemLook, env))] });
  }
  const start = Number.parseInt(element.attribs.start ?? '1', 10);
  return { kind: 'list', ordered: element.name === 'ol', start: Number.isFinite(start) ? start : 1, tight: true, items };
}

/**
 * Rows from the table's sections in order; the first row is the header when it is in `<thead>`
 * or all `<th>`. Markdown written between rows goes before the table, as browsers put it.
 */
async function table(element: Element, look: Look, env: HtmlEnv): Promise<Block[]> {
  const rows: Array<{ cells: Element[]; head: boolean }> = [];
  const strays: Element[] = [];
  // Anchors on rows and sections land on the table's top.
  const anchors: Block[] = [];
  const collect = (parent: Element, head: boolean) => {
    for (const child of parent.children) {
      if (child.type !== 'tag') continue;
      if (child.name === PLACEHOLDER) strays.push(child);
      else if (child.name === 'tr') {
        pushAll(anchors, anchorsOf(child, env));
        rows.push({ cells: child.children.filter((cell): cell is Element => cell.type === 'tag' && (cell.name === 'td' || cell.name === 'th')), head });
        strays.push(...child.children.filter((cell): cell is Element => cell.type === 'tag' && cell.name === PLACEHOLDER));
      } else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') {
        pushAll(anchors, anchorsOf(child, env));
        collect(child, child.name === 'thead');
      }
    }
  };
  collect(element, false);
  const before = await htmlBlocks(strays, look, env);
  if (rows.length === 0) return [...before, ...anchors];
  const first = rows[0];
  const hasHead = first !== undefined && (first.head || (first.cells.length > 0 && first.cells.every((cell) => cell.name === 'th')));
  const built: Inline[][][] = [];
  for (const row of rows) {
    const cells: Inline[][] = [];
    for (const cell of row.cells)
      cells.push([...anchorsOf(cell, env), ...trimBreaks(await htmlInlines(cell.children, lookOf(cell, look, env.sheets), null, env))]);
    built.push(cells);
  }
  const align: Align[] = (first?.cells ?? []).map((cell) => lookOf(cell, { ...look, align: null }, env.sheets).align);
  const block: Block = hasHead ? { kind: 'table', align, head: built[0]!, rows: built.slice(1) } : { kind: 'table', align, head: [], rows: built };
  return [...before, ...anchors, block];
}

/** Blocks run into one line of inlines, a break between each. */
export function inlinesOfBlocks(blocks: readonly Block[]): Inline[] {
  const out: Inline[] = [];
  const add = (inlines: Inline[]) => {
    if (inlines.length === 0) return;
    if (out.length > 0) out.push({ kind: 'break' });
    pushAll(out, inlines);
  };
  for (const block of blocks) {
    if (block.kind === 'paragraph' || block.kind === 'heading') add(block.content);
    else if (block.kind === 'code') add(codeInlines(block));
    else if (block.kind === 'figure') add([{ kind: 'image', image: block.image, alt: block.alt, link: block.link }]);
    else if (block.kind === 'quote') add(inlinesOfBlocks(block.children));
    else if (block.kind === 'list') for (const item of block.items) add(inlinesOfBlocks(item.children));
    else if (block.kind === 'anchor') out.push(block);
  }
  return out;
}

/** A code block run into a line: one code span, its emoji drawn. */
function codeInlines(block: Block & { kind: 'code' }): Inline[] {
  const code = {};
  const marks = { ...NO_MARKS, code: true };
  if (!block.lines) return [{ kind: 'text', text: block.text, marks, link: null, code }];
  return block.lines.flatMap((tokens, index) => [
    ...(index > 0 ? [tokenInline({ text: '\n', color: null }, marks, code)] : []),
    ...tokens.map((token) => tokenInline({ ...token, color: null }, marks, code)),
  ]);
}

/** Markdown inside an aligned element takes its alignment. */
function aligned(blocks: Block[], align: Align): Block[] {
  if (!align) return blocks;
  return blocks.map((block) => ((block.kind === 'paragraph' || block.kind === 'heading') && !block.align ? { ...block, align } : block));
}

/** Drops line breaks before the first and after the last content (anchors stay). */
function trimBreaks(inlines: Inline[]): Inline[] {
  const isContent = (inline: Inline) => inline.kind !== 'break' && inline.kind !== 'anchor';
  const first = inlines.findIndex(isContent);
  const last = inlines.findLastIndex(isContent);
  return inlines.filter((inline, index) => inline.kind !== 'break' || (index > first && index < last));
}
