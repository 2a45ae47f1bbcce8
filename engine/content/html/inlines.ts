import type { ChildNode, Element } from 'domhandler';
import type { Inline, Link } from '../../document/types.js';
import type { HtmlEnv } from './env.js';
import { imageSource, sizedImage } from './image.js';
import { lookOf, type Look } from './look.js';
import { PLACEHOLDER } from './region.js';
import { IGNORED, isBlockElement, textContent } from './elements.js';
import { pushAll } from '../../push-all.js';
import { anchorsOf, anchorsWithin } from './anchors.js';
import { textInlines } from '../../document/text-inlines.js';

interface InlineState {
  look: Look;
  link: Link | null;
  /** The same object for every piece of one `<code>` (one Code element). */
  code: object | null;
}

/** HTML inline content → Quire inlines; block elements met inside inline content break the line. */
export async function htmlInlines(nodes: readonly ChildNode[], look: Look, link: Link | null, env: HtmlEnv): Promise<Inline[]> {
  const out: Inline[] = [];
  await appendNodes(nodes, { look, link, code: null }, env, out);
  return out;
}

async function appendNodes(nodes: readonly ChildNode[], state: InlineState, env: HtmlEnv, out: Inline[]): Promise<void> {
  for (const node of nodes) {
    if (node.type === 'text') await appendText(node.data, state, env, out);
    else if (node.type === 'tag') await appendElement(node, state, env, out);
  }
}

/** Text, its emoji drawn as in Markdown text (shortcodes are Markdown's, not HTML's). */
async function appendText(text: string, state: InlineState, env: HtmlEnv, out: Inline[]): Promise<void> {
  if (text === '') return;
  const { marks, color } = state.look;
  pushAll(out, await textInlines(text, { marks, link: state.link, code: state.code, color }, env.context.features.emoji));
}

/** An element's content, after anchors for its id; one not shown leaves only the anchors in it. */
async function appendElement(element: Element, state: InlineState, env: HtmlEnv, out: Inline[]): Promise<void> {
  if (IGNORED.has(element.name)) {
    pushAll(out, anchorsWithin([element], env));
    return;
  }
  if (element.name === PLACEHOLDER) {
    pushAll(out, await env.markdownInlines(Number(element.attribs['data-index']), state.look.marks, state.link));
    return;
  }
  const look = lookOf(element, state.look, env.sheets);
  if (look.hidden) {
    pushAll(out, anchorsWithin([element], env));
    return;
  }
  const block = isBlockElement(element.name);
  if (block) breakLine(out);
  pushAll(out, anchorsOf(element, env));
  switch (element.name) {
    case 'br':
      out.push({ kind: 'break' });
      return;
    case 'img':
    case 'picture':
      await appendImage(element, state.link, env, out);
      return;
    case 'a': {
      const href = element.attribs.href;
      const link = state.link ?? (href ? env.context.links.resolve(href, textContent(element).trim() || (element.attribs.title ?? '')) : null);
      await appendNodes(element.children, { ...state, look, link }, env, out);
      return;
    }
  }
  const code = look.marks.code && !state.look.marks.code ? {} : state.code;
  await appendNodes(element.children, { look, link: state.link, code }, env, out);
  if (block) breakLine(out);
}

async function appendImage(element: Element, link: Link | null, env: HtmlEnv, out: Inline[]): Promise<void> {
  if (!env.context.features.images) return;
  const source = imageSource(element, env.context.contentOptions.theme);
  if (!source) return;
  const image = await env.context.resources.loadImage(source.src);
  if (image) out.push({ kind: 'image', image: sizedImage(image, source.img), alt: source.img.attribs.alt ?? '', link });
}

/** A line break, unless the content is empty or already ends with one. */
function breakLine(out: Inline[]): void {
  const last = out.at(-1);
  if (last && last.kind !== 'break') out.push({ kind: 'break' });
}
