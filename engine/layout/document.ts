import type { Block, FootnoteDefinition, QuireDocument } from '../document/types.js';
import { fontLibrary } from '../text/font-library.js';
import { RegisteredFonts } from '../text/registered-fonts.js';
import { hyphenatorFor } from '../text/hyphenation.js';
import { scaleItem, type FrameItem, type LaidOutDocument, type OutlineEntry, type Page } from './frame.js';
import { StructTree, Tagger } from './structure.js';
import { accented, palette as paletteFor } from '../style/palette.js';
import { landscape, pageGeometry } from '../style/page-geometry.js';
import { METRICS, typeScale } from '../style/metrics.js';
import type { DesignSettings } from '../style/design-settings.js';
import { formatPageNumber } from '../style/page-numbers.js';
import { watermarkItem } from './watermark.js';
import { pageSections, runningLineItems, type DocumentValues } from './running-lines.js';
import type { BlockCache } from './blocks/block-cache.js';
import { untagged, type BlockFrame, type LayoutContext } from './blocks/context.js';
import { layoutFootnote, layoutFootnotes } from './blocks/footnotes.js';
import { labelItems } from './blocks/label.js';
import { bodyLook } from './blocks/looks.js';
import type { CutPage } from './column-regions.js';
import { columnFrame, cutPages } from './columns.js';
import { Appendix } from './appendix.js';
import { missingGlyphWarnings } from './missing-glyphs.js';
import { pushAll } from '../push-all.js';
import { createHash } from '../hash.js';

export interface LayoutSettings {
  maxPages: number | undefined;
  signal: AbortSignal | undefined;
  /** Blocks laid out before (the editor's preview, a document re-rendered as it is edited). */
  blockCache?: BlockCache;
  /** The fonts given to the render, which the document's families may name. */
  fonts?: RegisteredFonts;
}

/** The document → pages of positioned glyph runs, shapes, images, links and structure. */
export function layoutDocument(document: QuireDocument, settings: LayoutSettings): LaidOutDocument {
  const { meta, features } = document;
  const warnings: string[] = [];
  const palette = accented(paletteFor(meta.theme), meta.design.accent, (message) => warnings.push(message));
  const geometry = pageGeometry(meta.design);
  const twoColumns = meta.design.columns.count === 2;
  const structure = features.tagged ? new StructTree(meta.language) : null;
  const tagger = new Tagger(structure);
  const hyphenator = meta.language && features.hyphenation ? hyphenatorFor(meta.language) : null;
  const registered = settings.fonts ?? RegisteredFonts.none;
  const fonts = fontLibrary.withFamilies(meta.design.fonts, registered);
  const context: LayoutContext = {
    fonts,
    palette,
    tagger,
    hyphenator,
    justify: hyphenator !== null,
    geometry,
    // A document set on turned pages already has room for wide tables; a column cannot turn alone.
    landscape: meta.design.orientation === 'landscape' || twoColumns ? null : landscape(geometry),
    // Beside another column, code has no margin to reach into.
    codeReach: twoColumns ? 0 : METRICS.codeMarginReach,
    body: bodyLook(palette),
    // Measured below: footnotes are laid out in the frame made after the context.
    footnoteHeight: (number) => noteHeights(number),
    appendix: new Appendix(),
    signal: settings.signal,
    warn: (message) => warnings.push(message),
  };
  // Digested once here, not with each block's key.
  const cached = settings.blockCache
    ? {
        cache: settings.blockCache,
        settings: createHash('sha256')
          .update(JSON.stringify([meta.design, meta.theme, meta.language, features, registered.signature]))
          .digest('base64'),
      }
    : undefined;
  cached?.cache.startLayout();
  const frame: BlockFrame = { x: geometry.marginInner, width: geometry.contentWidth, containers: [], tag: tagger.root, tight: false, listDepth: 0 };
  // Footnotes sit at the foot of the column that cites them.
  const noteFrame = columnFrame(frame, meta.design.columns);
  const noteHeights = footnoteHeights(document.footnotes, noteFrame, untagged(context));

  const footnotes = layoutFootnotes(document.footnotes, noteFrame, context);
  const cut = cutPages(
    document.blocks,
    frame,
    context,
    { geometry, palette, footnotes, maxPages: settings.maxPages, signal: settings.signal },
    meta.design.columns,
    cached,
  );
  const outline = outlineOf(document.blocks);
  // The heading that stands for the title is no section of the document, as LaTeX's \title is none.
  const sections = outline.filter((entry) => entry.dest !== meta.titleHeading);
  const laidOut = finishPages(cut, context, {
    design: meta.design,
    values: { title: meta.title ?? '', author: meta.author ?? '', date: meta.displayDate ?? '' },
    sections,
    titlePage: document.blocks.some((block) => block.kind === 'title' && block.ownPage),
  });
  pushAll(warnings, missingGlyphWarnings(laidOut));
  const scale = typeScale(meta.design);
  const pages =
    scale === 1
      ? laidOut
      : laidOut.map((page) => ({ items: page.items.map((item) => scaleItem(item, scale)), width: page.width * scale, height: page.height * scale }));

  return {
    pages,
    geometry: scale === 1 ? geometry : { ...geometry, width: geometry.width * scale, height: geometry.height * scale },
    structure,
    outline,
    pageColor: palette.page,
    meta: { title: meta.title, language: meta.language, author: meta.author, subject: meta.subject, keywords: meta.keywords, date: meta.date },
    attachment: features.embed_source ? document.source : null,
    fonts,
    warnings,
  };
}

/** Each footnote's height, laid out the first time it is asked for. */
function footnoteHeights(definitions: readonly FootnoteDefinition[], frame: BlockFrame, context: LayoutContext): (number: number) => number {
  const byNumber = new Map(definitions.map((definition) => [definition.number, definition]));
  const heights = new Map<number, number>();
  return (number) => {
    let height = heights.get(number);
    if (height === undefined) {
      const definition = byNumber.get(number);
      height = definition ? layoutFootnote(definition, frame, context).reduce((sum, line) => sum + line.height, 0) : 0;
      heights.set(number, height);
    }
    return height;
  };
}

interface Furniture {
  design: DesignSettings;
  values: DocumentValues;
  /** The outline's entries that `{section}` may name. */
  sections: readonly OutlineEntry[];
  /** The first page is a title page of its own, with no header or footer. */
  titlePage: boolean;
}

/**
 * Fills in page numbers now that pages are known: the TOC's references, the headers and footers.
 * A name given twice (an id written twice in HTML) lands where it is first, as in a browser; a
 * link to a name no page holds is left out.
 */
function finishPages(cut: CutPage[], context: LayoutContext, furniture: Furniture): Page[] {
  const pageOfDest = new Map<string, number>();
  const firstDests = new Set<FrameItem>();
  cut.forEach((page, index) => {
    for (const item of page.items) {
      if (item.kind !== 'dest' || pageOfDest.has(item.name)) continue;
      pageOfDest.set(item.name, index + 1);
      firstDests.add(item);
    }
  });
  const sections = pageSections(
    cut.map((page) => page.items.flatMap((item) => (item.kind === 'dest' ? [item.name] : []))),
    furniture.sections,
  );
  const { palette } = context;
  const lost = new Set<string>();
  return cut.map((page, index) => {
    const items: FrameItem[] = [];
    for (const item of page.items) {
      if (item.kind === 'dest' && !firstDests.has(item)) continue;
      if (item.kind === 'link' && item.target.kind === 'internal' && !pageOfDest.has(item.target.dest)) {
        if (!lost.has(item.target.dest)) context.warn(`link to #${item.target.dest} left out: its target is not shown`);
        lost.add(item.target.dest);
        continue;
      }
      if (item.kind !== 'page-ref') {
        items.push(item);
        continue;
      }
      const number = pageOfDest.get(item.dest);
      if (number === undefined) continue;
      const look = { ...bodyLook(palette), size: item.size, color: item.color };
      items.push(...labelItems(formatPageNumber(number, furniture.design.pageNumbers), look, item.right, item.y, item.tag, context));
    }
    const watermark = furniture.design.watermark === null ? null : watermarkItem(furniture.design.watermark, page.geometry, palette.muted, context.fonts);
    // Under the page's content.
    if (watermark) items.unshift(watermark);
    const facts = { number: index + 1, count: cut.length, geometry: page.geometry, section: sections[index]!, titlePage: furniture.titlePage && index === 0 };
    items.push(...runningLineItems(facts, furniture.design, furniture.values, context));
    return { items, width: page.geometry.width, height: page.geometry.height };
  });
}

function outlineOf(blocks: readonly Block[]): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  const visit = (list: readonly Block[]) => {
    for (const block of list) {
      if (block.kind === 'heading') {
        // A file's entry named after its leading heading stands for that heading too.
        const last = entries.at(-1);
        if (!(last?.level === 0 && last.title === block.text)) entries.push({ title: block.text, dest: block.id, level: block.level });
      } else if (block.kind === 'part') entries.push({ title: block.title, dest: block.dest, level: 0 });
      else if (block.kind === 'quote') visit(block.children);
      else if (block.kind === 'list') block.items.forEach((item) => visit(item.children));
    }
  };
  visit(blocks);
  return entries;
}
