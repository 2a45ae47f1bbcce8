import PDFDocument from 'pdfkit';
import { throwIfAborted } from '../errors.js';
import type { FaceSource, FrameItem, LaidOutDocument, PathItem } from '../layout/frame.js';
import { beginText, END_TEXT, glyphRunOps, type TextState } from './glyph-run.js';
import { OwnPngImage, ownPngLayout, type SplitImageCache } from './png-image.js';
import { writeOutline } from './outline.js';
import {
  collectBytes,
  escapeMetadataXml,
  internals,
  sortNameTreesByBytes,
  type DocumentInternals,
  type EmbeddedFontInternals,
  type PdfRef,
} from './pdfkit-internals.js';
import { hexTextString, textString, type PdfOperand } from './pdf-values.js';
import { postscriptName, type TrueTypeSource } from './font-tables.js';
import { lineOps, paintOps, rectOps } from './shapes.js';
import { StructureWriter } from './structure.js';
import { explicitCurves } from './explicit-curves.js';
import { subsetTrueType } from './truetype-subset.js';
import { compressThrough, type StreamCache } from './stream-cache.js';

export interface PaintSettings {
  signal: AbortSignal | undefined;
  /** Streams compressed for earlier renders (a document rendered again as it is edited). */
  streams?: StreamCache;
  /** Images with alpha split for earlier renders. */
  splitImages?: SplitImageCache;
}

const PRODUCER = 'Quire';
/** Link values this long are written once per document (see `shared`). */
const SHARED_FROM_CHARS = 256;

/** Laid-out pages → PDF bytes. The only module that knows PDFKit. */
export async function paintDocument(laid: LaidOutDocument, settings: PaintSettings): Promise<Uint8Array> {
  const tagged = laid.structure !== null;
  const { meta, geometry } = laid;
  const title = meta.title ?? 'Untitled document';
  // @types/pdfkit lags PDFKit 0.20 (subset 'PDF/UA', attachment relationships): options are checked at runtime by PDFKit.
  const options: Record<string, unknown> = {
    autoFirstPage: false,
    size: [geometry.width, geometry.height],
    margin: 0,
    compress: true,
    pdfVersion: '1.7',
    tagged,
    lang: meta.language ?? 'und',
    displayTitle: true,
    font: null,
    ...(tagged ? { subset: 'PDF/UA' } : {}),
    info: {
      Title: title,
      ...(meta.author ? { Author: meta.author } : {}),
      ...(meta.subject ? { Subject: meta.subject } : {}),
      ...(meta.keywords ? { Keywords: meta.keywords } : {}),
      Creator: PRODUCER,
      Producer: PRODUCER,
      CreationDate: meta.date,
      ModDate: meta.date,
    },
  };
  const doc = new PDFDocument(options as PDFKit.PDFDocumentOptions);
  const bytes = collectBytes(doc);
  const pdf = internals(doc);
  escapeMetadataXml(pdf);
  if (settings.streams) compressThrough(pdf, settings.streams);
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const structure = laid.structure ? new StructureWriter(pdf, laid.structure) : null;
  const painter = new ItemPainter(doc, pdf, structure, settings.splitImages, laid.fonts);
  for (const page of laid.pages) {
    throwIfAborted(settings.signal);
    doc.addPage({ size: [page.width, page.height], margin: 0 });
    if (laid.pageColor) painter.background(laid.pageColor, page.width, page.height);
    for (const item of page.items) painter.paint(item);
    painter.endPage();
  }
  structure?.finish();
  writeOutline(pdf, laid.outline);
  if (laid.attachment !== null) {
    pdf.file(Buffer.from(laid.attachment, 'utf8'), {
      name: 'document.md',
      type: 'text/markdown',
      relationship: 'Source',
      description: 'The Markdown source of this document',
      creationDate: meta.date,
      modifiedDate: meta.date,
    });
  }
  sortNameTreesByBytes(pdf);
  doc.end();
  await finished;
  return bytes();
}

/** Paints frame items, each inside its structure element or marked as an artifact. */
class ItemPainter {
  private readonly fonts = new Map<string, EmbeddedFontInternals>();
  private readonly images = new Map<string, unknown>();
  private readonly sharedValues = new Map<string, PdfRef>();
  private pending: string[] = [];
  /** The text object open on this page, with what it has set; null when none is. */
  private text: TextState | null = null;
  /** The element whose marked content is open on this page: null for an artifact, undefined for none. */
  private openTag: number | null | undefined = undefined;
  /** Whether that marked content opened inside the open text object (and so ends inside it). */
  private markedInText = false;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly pdf: DocumentInternals,
    private readonly structure: StructureWriter | null,
    private readonly splitImages: SplitImageCache | undefined,
    private readonly faces: FaceSource,
  ) {}

  background(color: readonly [number, number, number], width: number, height: number): void {
    this.marked(null, () => this.write(paintOps(rectOps(0, 0, width, height, 0), { fill: color, stroke: null, lineWidth: 0 })));
  }

  /**
   * Operators gather here and reach the page as one Buffer per run of Quire's own drawing:
   * PDFKit converts strings character by character, and many small buffers cost memory.
   */
  private write(ops: string): void {
    this.pending.push(ops);
  }

  /** Writes what has gathered; called before PDFKit draws (images, paths) and at a page's end. */
  private flush(): void {
    if (this.pending.length === 0) return;
    this.pdf.page.write(Buffer.from(`${this.pending.join('\n')}\n`, 'latin1'));
    this.pending = [];
  }

  paint(item: FrameItem): void {
    if (item.kind === 'glyphs') {
      this.marked(
        item.tag,
        () => {
          this.text ??= this.openText();
          glyphRunOps(this.pdf.page, this.font(item.face), item, this.text, this.pending);
        },
        true,
      );
      return;
    }
    // Links, destinations and structure marks draw nothing, so a text object may stay open across them.
    if (item.kind !== 'link' && item.kind !== 'dest' && item.kind !== 'struct-mark') this.closeText();
    switch (item.kind) {
      case 'rect':
        this.marked(item.tag, () => {
          const shape = paintOps(rectOps(item.x, item.y, item.width, item.height, item.radius), item);
          this.write(item.actualText === null ? shape : `/Span <</ActualText ${hexTextString(item.actualText)}>> BDC\n${shape}\nEMC`);
        });
        break;
      case 'line':
        this.marked(null, () => this.write(lineOps(item.x1, item.y1, item.x2, item.y2, item.width, item.color)));
        break;
      case 'image':
        this.marked(item.tag, () => {
          this.flush();
          this.doc.image(this.image(item.image.id, item.image.bytes) as Buffer, item.x, item.y, { width: item.width, height: item.height });
        });
        break;
      case 'link':
        this.link(item);
        break;
      case 'dest':
        this.doc.addNamedDestination(item.name, 'XYZ', item.x, item.y, null);
        break;
      case 'struct-mark':
        this.structure?.mark(item.tag);
        break;
      case 'path':
        this.marked(item.tag, () => this.path(item));
        break;
    }
  }

  /** Closes the page's open text object and marked-content sequence, if any. */
  endPage(): void {
    this.closeText();
    this.closeMarked();
    this.flush();
  }

  private openText(): TextState {
    this.write(beginText(this.pdf.page));
    return { font: null, size: 0, color: null, invisible: false };
  }

  private closeText(): void {
    if (this.text === null) return;
    if (this.markedInText) this.closeMarked();
    this.write(END_TEXT);
    this.text = null;
  }

  private closeMarked(): void {
    if (this.openTag === undefined) return;
    this.write('EMC');
    this.openTag = undefined;
    this.markedInText = false;
  }

  /**
   * Tagged content goes in its element; anything without an element is an artifact.
   * Consecutive items of one element share one marked-content sequence (one MCID). A marked-content
   * sequence holds whole text objects, or lies whole inside one: glyph runs of one element after
   * another's (a paragraph's words around its inline code, a table's cells) change sequence inside
   * the open text object, which then keeps its font and colour (a text object and its settings
   * for each were a tenth of a page's bytes).
   */
  private marked(tag: number | null, draw: () => void, text = false): void {
    if (this.structure && this.openTag !== tag) {
      if (text && this.text !== null && this.markedInText) this.closeMarked();
      else {
        this.closeText();
        this.closeMarked();
        if (text) this.text = this.openText();
      }
      this.write(tag === null ? '/Artifact BMC' : this.structure.beginContent(tag));
      this.openTag = tag;
      this.markedInText = text;
    }
    draw();
  }

  /** A drawing's shape, through PDFKit's SVG path reader and its opacity graphics states. */
  private path(item: PathItem): void {
    this.flush();
    const doc = this.doc;
    doc.save();
    doc.transform(...item.matrix);
    doc.path(explicitCurves(item.d));
    if (item.fill) doc.fillColor([...item.fill], item.fillOpacity);
    const stroke = item.stroke;
    if (stroke) {
      doc
        .strokeColor([...stroke.color], stroke.opacity)
        .lineWidth(stroke.width)
        .lineCap(stroke.cap)
        .lineJoin(stroke.join);
      // PDFKit throws on a dash array containing 0.
      const dash = stroke.dash?.filter((length) => length > 0);
      if (dash && dash.length > 0) doc.dash(dash[0]!, { space: dash[1] ?? dash[0]! });
    }
    const rule = item.fillRule === 'evenodd' ? 'even-odd' : 'non-zero';
    if (item.fill && stroke) doc.fillAndStroke(rule);
    else if (item.fill) doc.fill(rule);
    else doc.stroke();
    doc.restore();
  }

  private link(item: FrameItem & { kind: 'link' }): void {
    const page = this.pdf.page;
    const rect = [item.x, page.height - item.y - item.height, item.x + item.width, page.height - item.y];
    const { target } = item;
    const destination = target.kind === 'uri' ? target.uri : target.dest;
    const action = this.shared(`${target.kind} ${destination}`, destination.length, () =>
      target.kind === 'uri' ? { S: 'URI', URI: textString(target.uri) } : { S: 'GoTo', D: textString(target.dest) },
    );
    const contents = this.shared(`text ${item.description}`, item.description.length, () => textString(item.description));
    const annotation = this.pdf.ref({ Type: 'Annot', Subtype: 'Link', Rect: rect, Border: [0, 0, 0], F: 4, A: action, Contents: contents });
    if (this.structure && item.tag !== null) this.structure.annotation(item.tag, annotation);
    page.annotations.push(annotation);
    annotation.end();
  }

  /**
   * A long value of a link (its action, its description) as one object that each of the link's
   * annotations (one per line and page it spans) refers to, instead of a copy in every one: a
   * 100 KB bare URL wrapped over a thousand lines made a 100 MB file. Short ones stay inline.
   */
  private shared<T extends Record<string, unknown> | PdfOperand>(key: string, length: number, value: () => T): T | PdfRef {
    if (length < SHARED_FROM_CHARS) return value();
    let ref = this.sharedValues.get(key);
    if (!ref) {
      ref = this.pdf.ref(value());
      ref.end();
      this.sharedValues.set(key, ref);
    }
    return ref;
  }

  private font(key: string): EmbeddedFontInternals {
    let font = this.fonts.get(key);
    if (!font) {
      const source = this.faces.known(key).font;
      // PDFKit names the font by its PostScript name, which fontkit finds by decoding its whole name table.
      if (!Object.hasOwn(source, 'postscriptName')) {
        const name = postscriptName(source as unknown as TrueTypeSource);
        if (name !== null) Object.defineProperty(source, 'postscriptName', { value: name });
      }
      this.doc.font(source as unknown as string, key);
      font = this.pdf._font;
      useOwnTrueTypeSubset(font);
      this.fonts.set(key, font);
    }
    return font;
  }

  private image(id: string, bytes: Uint8Array): unknown {
    let image = this.images.get(id);
    if (!image) {
      const png = ownPngLayout(bytes);
      image = png
        ? new OwnPngImage(png, `I${++this.pdf._imageCount}`, this.splitImages)
        : this.pdf.openImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      this.images.set(id, image);
    }
    return image;
  }
}

/** TrueType outlines are subset by copying their bytes (truetype-subset.ts); CFF fonts stay fontkit's. */
function useOwnTrueTypeSubset(font: EmbeddedFontInternals): void {
  const source = font.font;
  if (!source.directory.tables.glyf || source._variationProcessor) return;
  const subset = font.subset;
  subset.encode = () => {
    const bytes = subsetTrueType(source, subset.glyphs, (glyph) => subset.includeGlyph(glyph));
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}
