import type { BlockContent, Definition, DefinitionContent, Heading, Nodes, Paragraph, RootContent, Table } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import GithubSlugger from 'github-slugger';
import type { DocumentMetadata, Features, RendererBounds, ResourceMode } from '../options.js';
import type { ParsedSource } from '../parse/markdown.js';
import type { FrontMatter } from '../parse/front-matter.js';
import { resolveDesign, settingMessage } from '../style/design-settings.js';
import { FrontMatterError } from '../errors.js';
import type { ResourceLoader } from '../resources/loader.js';
import { ResourceTracker } from '../resources/tracker.js';
import { FootnoteNumbering, LinkResolver, type BuildContext, type PartTargets } from './context.js';
import { anchorsIn, shows } from './anchors.js';
import { buildInlines } from './inlines.js';
import { textInlines, type TextSetting } from './text-inlines.js';
import { warnIfNotDrawn } from './drawing-failure.js';
import { codeBlock, displayMath } from './code-blocks.js';
import { numberHeadings } from './heading-numbers.js';
import { decodeImage } from '../content/images/decode.js';
import { DecodedPixelBudget } from '../content/images/decoded-pixels.js';
import { replaceShortcodes } from '../content/emoji/index.js';
import { pushAll } from '../push-all.js';
import { NO_MARKS, type Align, type Block, type FootnoteDefinition, type HeadingLevel, type Inline, type QuireDocument, type TocEntry } from './types.js';
import type { CodeBlockCache } from './code-block-cache.js';

export interface BuildSettings {
  features: Features;
  language: string | undefined;
  bounds: RendererBounds;
  signal: AbortSignal | undefined;
  resourceMode: ResourceMode;
  resourceBytes: number;
  metadata: DocumentMetadata;
  /** Front matter keys from the caller (`design` option, `--set`); the document's own override them. */
  design: FrontMatter;
  /** Fenced blocks an earlier render made, reused where they are the same. */
  codeBlocks?: CodeBlockCache;
}

/** One Markdown file of a document, with where its images load from. */
export interface DocumentPart {
  source: ParsedSource;
  loader: ResourceLoader;
  /**
   * Files joined into one document: the file's path from their common root, with `/` between
   * folders, which relative links between them name. Null for a lone document.
   */
  path: string | null;
}

/** A fixed creation date: the engine reads no clock, so equal input gives equal bytes. */
const FIXED_DATE = new Date(Date.UTC(2000, 0, 1));

/**
 * mdast → Quire's document: blocks with resolved styles, links, footnotes and loaded resources.
 * Several files make one document: each starts a new page under an outline entry of its own,
 * names its places in a namespace of its own, and links to the others by their paths. The first
 * file's front matter speaks for the whole (title block, contents, theme, paper, language).
 */
export async function buildDocument(parts: readonly DocumentPart[], settings: BuildSettings): Promise<QuireDocument> {
  const warnings: string[] = [];
  const warnFor = (part: DocumentPart) => (message: string) => {
    if (warnings.length < 100) warnings.push(part.path === null || parts.length === 1 ? message : `${part.path}: ${message}`);
  };
  for (const part of parts) for (const warning of part.source.warnings) warnFor(part)(warning);
  const footnotes = new FootnoteNumbering();
  const named = await Promise.all(parts.map((part, index) => nameParts(part, index, footnotes)));
  const byPath = new Map(named.flatMap(({ targets }) => (targets.path === null ? [] : [[targets.path, targets] as const])));
  const frontMatter: FrontMatter = { ...settings.design, ...parts[0]!.source.frontMatter };
  const design = resolveDesign(frontMatter, (key, value, expected) => {
    throw new FrontMatterError(settingMessage(key, value, expected));
  });
  const firstH1 = firstH1Of(parts[0]!.source.tree.children);
  const title = settings.metadata.title ?? frontMatter.title ?? (firstH1 && (await readableText(firstH1, { features: settings.features })));

  const decodedPixels = new DecodedPixelBudget(settings.bounds.maxDecodedPixels);
  const resources = new ResourceTracker({
    mode: settings.resourceMode,
    budgetBytes: settings.resourceBytes,
    signal: settings.signal,
    decode: async (id, bytes) => decodedPixels.count(await decodeImage(id, bytes, { bounds: settings.bounds, svg: settings.features.svg })),
  });
  const contentOptions = { theme: frontMatter.theme ?? settings.features.theme, signal: settings.signal };
  const builders = parts.map((part, index) => {
    const { headingIds, targets, definitions } = named[index]!;
    const warn = warnFor(part);
    const context: BuildContext = {
      features: settings.features,
      definitions,
      footnotes: footnotes.of(index),
      links: new LinkResolver(targets, warn, byPath),
      resources: { loadImage: (url) => resources.loadImage(url, part.loader, warn) },
      contentOptions,
      codeBlocks: settings.codeBlocks,
      warn,
    };
    return new BlockBuilder(context, headingIds);
  });

  const blocks: Block[] = [];
  for (const [index, part] of parts.entries()) {
    const start = named[index]!.targets.start;
    if (start !== null) blocks.push({ kind: 'part', dest: start, title: await partTitle(part, settings.features) });
    pushAll(blocks, await builders[index]!.blocks(part.source.tree.children));
  }
  // With a title in the front matter the first H1 is an ordinary heading, not the title — unless
  // it only repeats the title, which is then printed once, in the title block, under its anchor.
  if (frontMatter.title !== undefined) {
    const at = leadingIndex(blocks);
    const leading = blocks[at];
    const repeated = leading?.kind === 'heading' && leading.level === 1 && sameText(leading.text, frontMatter.title) ? leading : null;
    const line = (text: string | undefined) => (text === undefined ? null : textInlines(text, PLAIN, settings.features.emoji));
    const authors = frontMatter.authors?.length ? frontMatter.authors.join(', ') : undefined;
    const cover = design.coverImage === null ? null : await resources.loadImage(design.coverImage, parts[0]!.loader, warnFor(parts[0]!));
    const title: Block = {
      kind: 'title',
      title: (await line(frontMatter.title))!,
      subtitle: await line(frontMatter.subtitle),
      authors: await line(authors),
      date: await line(frontMatter.date),
      id: repeated?.id ?? null,
      cover: cover?.kind === 'failed' ? null : cover,
      ownPage: design.titlePage,
    };
    // Anchors over or in the repeated H1 land on the title block.
    if (repeated) blocks.splice(at, 1, ...anchorsIn(repeated.content), title);
    else blocks.splice(at === -1 ? blocks.length : at, 0, title);
  } else if (design.titlePage || design.coverImage !== null) warnFor(parts[0]!)('title_page and cover_image need a title in the front matter: left out');
  const titleBlock = frontMatter.title === undefined ? titleHeading(blocks) : null;
  if (design.numberHeadings) numberHeadings(blocks, titleBlock);
  if (frontMatter.toc) await insertToc(blocks, frontMatter.tocDepth ?? DEFAULT_TOC_DEPTH, settings.features);

  const footnoteDefinitions: FootnoteDefinition[] = [];
  for (let index = 0; ; index++) {
    const referenced = footnotes.referenced(index);
    if (!referenced) break;
    footnoteDefinitions.push({ number: referenced.number, dest: referenced.dest, blocks: await builders[referenced.part]!.blocks(referenced.node.children) });
  }

  const metadata = settings.metadata;
  return {
    meta: {
      title,
      language: settings.language ?? frontMatter.language,
      theme: frontMatter.theme ?? settings.features.theme,
      design,
      displayDate: frontMatter.date,
      titleHeading: titleBlock?.kind === 'heading' ? titleBlock.id : null,
      toc: frontMatter.toc ?? false,
      author: metadata.author ?? (frontMatter.authors?.length ? frontMatter.authors.join(', ') : undefined),
      subject: metadata.subject,
      keywords: metadata.keywords,
      date: metadata.date ?? FIXED_DATE,
    },
    blocks,
    footnotes: footnoteDefinitions,
    features: settings.features,
    resources: resources.outcome(),
    warnings,
    source: parts.map((part) => part.source.markdown).join('\n'),
  };
}

/** The names one file gives its places: heading slugs, HTML anchors, its link definitions and footnotes. */
async function nameParts(part: DocumentPart, index: number, footnotes: FootnoteNumbering) {
  const { tree } = part.source;
  const definitions = new Map<string, Definition>();
  forEachNode(tree.children, (node) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
    if (node.type === 'footnoteDefinition') footnotes.define(index, node);
  });
  // The first file names its places as a lone document does; the others in a namespace each.
  const prefix = index === 0 ? '' : `${index}:`;
  const slugger = new GithubSlugger();
  const slugs = new Map<Heading, string>();
  forEachHeading(tree.children, (heading) => {
    const written = heading.data?.id;
    // The slugger counts a written id as taken too, so no later slug repeats it.
    const slug = slugger.slug(written ?? headingText(heading));
    slugs.set(heading, written ?? slug);
  });
  const headingIds = new Map([...slugs].map(([heading, slug]) => [heading, prefix + slug]));
  const headings = new Set(slugs.values());
  const targets: PartTargets = {
    targets: { headings, html: await htmlTargets(tree.children, headings) },
    prefix,
    path: part.path,
    start: part.path === null ? null : `file:${index}`,
  };
  return { headingIds, targets, definitions };
}

/** What the outline calls a joined file: its front matter's title, else its first H1, else its path. */
async function partTitle(part: DocumentPart, features: Features): Promise<string> {
  const h1 = firstH1Of(part.source.tree.children);
  return part.source.frontMatter.title ?? (h1 && (await readableText(h1, { features }))) ?? part.path!;
}

class BlockBuilder {
  constructor(
    private readonly context: BuildContext,
    private readonly headingIds: Map<Heading, string>,
  ) {}

  async blocks(nodes: readonly (RootContent | BlockContent | DefinitionContent)[]): Promise<Block[]> {
    const out: Block[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      if (node.type === 'html') {
        // HTML may open here and close blocks later, wrapping the Markdown between.
        // The HTML parser and CSS engine load only when a document has HTML.
        const { htmlRegionLength, regionBlocks } = await import('../content/html/index.js');
        const length = htmlRegionLength(nodes, i, htmlOf);
        pushAll(out, await regionBlocks({ nodes: nodes.slice(i, i + length), htmlOf }, this.context, (inner) => this.blocks([inner])));
        i += length - 1;
        continue;
      }
      pushAll(out, await this.block(node));
    }
    return out;
  }

  private async block(node: RootContent | BlockContent | DefinitionContent): Promise<Block[]> {
    switch (node.type) {
      case 'paragraph':
        return this.paragraph(node);
      case 'heading': {
        const content = await buildInlines(node.children, this.context);
        const unnumbered = node.data?.unnumbered ? { unnumbered: true } : {};
        return [
          {
            kind: 'heading',
            level: node.depth as HeadingLevel,
            content,
            id: this.headingIds.get(node)!,
            text: await readableText(node, this.context),
            ...unnumbered,
          },
        ];
      }
      case 'thematicBreak':
        return [{ kind: 'rule' }];
      case 'pageBreak':
        return [{ kind: 'page-break' }];
      case 'blockquote':
        return [{ kind: 'quote', children: await this.blocks(node.children), alert: node.data?.alert ?? null }];
      case 'list': {
        const items = [];
        for (const item of node.children) {
          items.push({ checked: item.checked ?? null, children: await this.blocks(item.children) });
        }
        return [
          { kind: 'list', ordered: node.ordered ?? false, start: node.start ?? 1, tight: !node.spread && node.children.every((item) => !item.spread), items },
        ];
      }
      case 'code':
        return [
          warnIfNotDrawn(
            await codeBlock(node.value, node.lang ?? null, this.context.features, this.context.contentOptions, this.context.codeBlocks),
            node.value,
            this.context.warn,
          ),
        ];
      case 'math':
        return [
          this.context.features.math
            ? warnIfNotDrawn(await displayMath(node.value, this.context.contentOptions), node.value, this.context.warn)
            : { kind: 'code', text: node.value, language: 'math', lines: null, note: null },
        ];
      case 'table':
        return [await this.table(node)];
      case 'definition':
      case 'footnoteDefinition':
      case 'yaml':
        return [];
      default:
        this.context.warn(`unsupported block ${node.type} left out`);
        return [];
    }
  }

  /**
   * A paragraph holding one image and nothing else becomes a figure, as on GitHub. Anchors in a
   * figure, or in a paragraph of nothing else (`<a name="…"></a>` over a heading), land on what follows.
   */
  private async paragraph(node: Paragraph): Promise<Block[]> {
    const content = await buildInlines(node.children, this.context);
    const anchors = anchorsIn(content);
    if (anchors.length === content.length) return anchors;
    const meaningful = content.filter(shows);
    const only = meaningful.length === 1 ? meaningful[0] : undefined;
    if (only?.kind === 'image') {
      const caption = imageTitle(node);
      return [...anchors, { kind: 'figure', image: only.image, alt: only.alt, caption, link: only.link }];
    }
    return [{ kind: 'paragraph', content }];
  }

  private async table(node: Table): Promise<Block> {
    const align: Align[] = (node.align ?? []).map((value) => value ?? null);
    const rows: Inline[][][] = [];
    for (const row of node.children) {
      const cells: Inline[][] = [];
      for (const cell of row.children) cells.push(await buildInlines(cell.children, this.context));
      rows.push(cells);
    }
    const [head = [], ...body] = rows;
    return { kind: 'table', align, head, rows: body };
  }
}

/**
 * The names of the HTML's anchors (ids, `<a name>`), read before the document is built so that a
 * link before its target resolves; a name a heading has stays the heading's.
 */
async function htmlTargets(nodes: readonly Nodes[], headings: ReadonlySet<string>): Promise<Set<string>> {
  const html: string[] = [];
  forEachNode(nodes, (node) => {
    if (node.type === 'html') html.push(node.value);
  });
  const names = new Set<string>();
  if (html.length === 0) return names;
  const { htmlTargetNames } = await import('../content/html/anchors.js');
  for (const value of html) for (const name of htmlTargetNames(value)) if (!headings.has(name)) names.add(name);
  return names;
}

/** A node's HTML (there is some only when `html_blocks` is on), or null for Markdown. */
function htmlOf(node: RootContent | BlockContent | DefinitionContent): string | null {
  return node.type === 'html' ? node.value : null;
}

function imageTitle(node: Paragraph): string | null {
  for (const child of node.children) {
    if (child.type === 'image') return child.title ?? null;
    if (child.type === 'link') {
      const image = child.children.find((inner) => inner.type === 'image');
      if (image?.type === 'image') return image.title ?? null;
    }
  }
  return null;
}

/** Link reference definitions and footnotes by identifier; the first definition wins. */
function forEachNode(nodes: readonly Nodes[], visit: (node: Nodes) => void): void {
  const stack = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    if (!('children' in node)) continue;
    // One push per child: spreading a paragraph of 400,000 inlines would overflow the stack.
    const children = node.children as Nodes[];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

function forEachHeading(nodes: readonly Nodes[], visit: (heading: Heading) => void): void {
  forEachNode(nodes, (node) => {
    if (node.type === 'heading') visit(node);
  });
}

function firstH1Of(nodes: readonly RootContent[]): Heading | undefined {
  let found: Heading | undefined;
  forEachHeading(nodes, (heading) => {
    if (found === undefined && heading.depth === 1) found = heading;
  });
  return found;
}

/** A heading's text as bookmarks, the contents and the title show it: shortcodes become emoji. */
async function readableText(heading: Heading, context: { features: Features }): Promise<string> {
  const text = headingText(heading);
  return context.features.emoji ? replaceShortcodes(text) : text;
}

/** A heading's text as a reader sees it: without the tags of its HTML (`<a name="…"></a>`), as GitHub slugs it. */
function headingText(heading: Heading): string {
  return plainText(heading, { includeHtml: false });
}

function sameText(a: string, b: string): boolean {
  const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  return normal(a) === normal(b);
}

/** Text set as it comes: no marks, link or colour of its own. */
const PLAIN: TextSetting = { marks: NO_MARKS, link: null, code: null, color: null };

/** Heading levels the contents list unless `toc_depth` says otherwise. */
const DEFAULT_TOC_DEPTH = 3;

/**
 * The table of contents goes after the title: after the front matter's title block, else after
 * a leading H1 (which the contents then leave out), else at the very top.
 */
async function insertToc(blocks: Block[], depth: number, features: Features): Promise<void> {
  const at = leadingIndex(blocks);
  const leading = blocks[at];
  const title = leading?.kind === 'title' || (leading?.kind === 'heading' && leading.level === 1) ? leading : null;
  const headings: Array<Block & { kind: 'heading' }> = [];
  const visit = (list: Block[]) => {
    for (const block of list) {
      if (block.kind === 'heading' && block !== title && block.level <= depth) headings.push(block);
      if (block.kind === 'quote') visit(block.children);
      if (block.kind === 'list') block.items.forEach((item) => visit(item.children));
    }
  };
  visit(blocks);
  const entries: TocEntry[] = [];
  for (const heading of headings) {
    const link = { target: { kind: 'internal' as const, dest: heading.id }, description: heading.text };
    const number = heading.number === undefined ? null : textInlines(heading.number, { ...PLAIN, link }, false);
    const text = heading.number === undefined ? heading.text : heading.text.slice(heading.number.length + 1);
    entries.push({ level: heading.level, number: await number, content: await textInlines(text, { ...PLAIN, link }, features.emoji), dest: heading.id });
  }
  blocks.splice(title ? at + 1 : blocks[0]?.kind === 'part' ? 1 : 0, 0, { kind: 'toc', entries });
}

/**
 * The heading that is the document's title when the front matter names none: a leading H1 that
 * is the only H1 (with several, the first is a chapter like the others).
 */
function titleHeading(blocks: readonly Block[]): Block | null {
  const leading = blocks[leadingIndex(blocks)];
  if (leading?.kind !== 'heading' || leading.level !== 1) return null;
  return blocks.some((block) => block !== leading && block.kind === 'heading' && block.level === 1) ? null : leading;
}

/** Where the first block that shows something is (anchors and a file's start only name its place); -1 for none. */
function leadingIndex(blocks: readonly Block[]): number {
  return blocks.findIndex((block) => block.kind !== 'anchor' && block.kind !== 'part');
}
