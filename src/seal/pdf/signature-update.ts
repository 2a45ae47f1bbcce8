/**
 * The seal's incremental update, appended after the rendered PDF's %%EOF so the original bytes
 * stay as they were: a signature dictionary with a /Contents placeholder, an invisible signature
 * field (a zero-size widget on the first page, in the catalog's new /AcroForm), the rewritten
 * catalog and page, a cross-reference section and a trailer pointing back at the original one.
 * The /ByteRange covers everything but the placeholder; the CMS goes in afterwards.
 */
import { readDictObject, readPdfFile, type PdfFile } from './pdf-file.js';
import { pdfDate, pdfTextString } from './pdf-strings.js';
import { PdfSyntaxError, ref, refOf, serialize, token, tokenOf, type PdfValue } from './pdf-syntax.js';

export interface SignatureDetails {
  /** Signing time for /M, milliseconds since the epoch. */
  signedAt: number;
  reason: string | undefined;
  location: string | undefined;
  contact: string | undefined;
}

export interface PreparedPdf {
  bytes: Buffer;
  /** [0, start of `<`, just past `>`, rest]: the signed bytes are the first and last span. */
  byteRange: [number, number, number, number];
  /** Bytes of CMS the placeholder holds. */
  capacity: number;
}

const BYTE_RANGE_PLACEHOLDER = `[0 ${'0'.repeat(10)} ${'0'.repeat(10)} ${'0'.repeat(10)}]`;
/** Print + Locked: a widget that prints nothing (zero size) and cannot be moved. */
const WIDGET_FLAGS = 132;
const MAX_PAGE_TREE_DEPTH = 32;

export function appendSignatureField(pdf: Uint8Array, details: SignatureDetails, capacity: number): PreparedPdf {
  const file = readPdfFile(pdf);
  const size = Number(tokenOf(file.trailer.get('/Size')));
  const root = refOf(file.trailer.get('/Root'));
  const catalog = readDictObject(file, root.num);
  if (catalog.has('/AcroForm')) throw new PdfSyntaxError('the document already has a form');
  const pageRef = firstPage(file, refOf(catalog.get('/Pages')));
  const page = readDictObject(file, pageRef.num);

  const [signature, widget, form] = [size, size + 1, size + 2];
  catalog.set('/AcroForm', ref(form));
  page.set('/Annots', withItem(page.get('/Annots'), ref(widget)));
  // PDF/UA-1 7.18.3: a page with annotations declares its tab order (the engine's pages already do).
  if (!page.has('/Tabs')) page.set('/Tabs', token('/S'));

  const contentsPlaceholder = `<${'0'.repeat(2 * capacity)}>`;
  const objects: [num: number, gen: number, body: string][] = [
    [signature, 0, signatureDictionary(details, contentsPlaceholder)],
    [widget, 0, widgetDictionary(signature, pageRef)],
    [form, 0, `<<\n/Fields [${widget} 0 R]\n/SigFlags 3\n>>`],
    [root.num, root.gen, serialize({ kind: 'dict', entries: catalog })],
    [pageRef.num, pageRef.gen, serialize({ kind: 'dict', entries: page })],
  ];

  const start = file.text.length;
  let update = file.text.endsWith('\n') ? '' : '\n';
  const offsets = new Map<number, [offset: number, gen: number]>();
  for (const [num, gen, body] of objects) {
    offsets.set(num, [start + update.length, gen]);
    update += `${num} ${gen} obj\n${body}\nendobj\n`;
  }
  const xrefOffset = start + update.length;
  update += crossReference(offsets);
  update += `trailer\n${serialize(trailer(file, size + 3))}\nstartxref\n${xrefOffset}\n%%EOF\n`;

  const bytes = Buffer.concat([Buffer.from(pdf), Buffer.from(update, 'latin1')]);
  const contentsStart = bytes.indexOf(`/Contents ${contentsPlaceholder}`, start, 'latin1') + '/Contents '.length;
  const contentsEnd = contentsStart + contentsPlaceholder.length;
  const byteRange: PreparedPdf['byteRange'] = [0, contentsStart, contentsEnd, bytes.length - contentsEnd];
  const rangeAt = bytes.indexOf(BYTE_RANGE_PLACEHOLDER, start, 'latin1');
  bytes.write(`[${byteRange.join(' ')}]`.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' '), rangeAt, 'latin1');
  return { bytes, byteRange, capacity };
}

/** The bytes the signature covers: everything but the /Contents placeholder. */
export function signedSpans(prepared: PreparedPdf): Buffer[] {
  const [, firstLength, restStart, restLength] = prepared.byteRange;
  return [prepared.bytes.subarray(0, firstLength), prepared.bytes.subarray(restStart, restStart + restLength)];
}

/** The sealed PDF: the CMS written into the placeholder, zero-padded. */
export function insertSignature(prepared: PreparedPdf, cms: Buffer): Buffer {
  if (cms.length > prepared.capacity) throw new PdfSyntaxError('the signature is larger than its placeholder');
  const sealed = Buffer.from(prepared.bytes);
  sealed.write(cms.toString('hex').toUpperCase(), prepared.byteRange[1] + 1, 'latin1');
  return sealed;
}

function signatureDictionary(details: SignatureDetails, contentsPlaceholder: string): string {
  const lines = [
    '/Type /Sig',
    '/Filter /Adobe.PPKLite',
    '/SubFilter /ETSI.CAdES.detached',
    `/ByteRange ${BYTE_RANGE_PLACEHOLDER}`,
    `/Contents ${contentsPlaceholder}`,
    `/M ${pdfDate(details.signedAt)}`,
  ];
  if (details.reason !== undefined) lines.push(`/Reason ${pdfTextString(details.reason)}`);
  if (details.location !== undefined) lines.push(`/Location ${pdfTextString(details.location)}`);
  if (details.contact !== undefined) lines.push(`/ContactInfo ${pdfTextString(details.contact)}`);
  return `<<\n${lines.join('\n')}\n>>`;
}

/** The signature field and its widget in one dictionary: zero size, so nothing is drawn. */
function widgetDictionary(signature: number, page: { num: number; gen: number }): string {
  const lines = [
    '/Type /Annot',
    '/Subtype /Widget',
    '/FT /Sig',
    '/T (Seal)',
    `/V ${signature} 0 R`,
    `/P ${page.num} ${page.gen} R`,
    '/Rect [0 0 0 0]',
    `/F ${WIDGET_FLAGS}`,
  ];
  return `<<\n${lines.join('\n')}\n>>`;
}

/** The new trailer: the old one's entries (/Root, /Info, /ID) with the new /Size and /Prev. */
function trailer(file: PdfFile, size: number): PdfValue {
  const entries = new Map(file.trailer);
  entries.delete('/XRefStm');
  entries.set('/Size', token(String(size)));
  entries.set('/Prev', token(String(file.startxref)));
  return { kind: 'dict', entries };
}

/** One subsection per run of consecutive object numbers; entries of exactly 20 bytes. */
function crossReference(offsets: Map<number, [number, number]>): string {
  const numbers = [...offsets.keys()].sort((a, b) => a - b);
  let text = 'xref\n';
  for (let i = 0; i < numbers.length; ) {
    let j = i + 1;
    while (j < numbers.length && numbers[j] === numbers[j - 1]! + 1) j++;
    text += `${numbers[i]} ${j - i}\n`;
    for (const num of numbers.slice(i, j)) {
      const [offset, gen] = offsets.get(num)!;
      text += `${String(offset).padStart(10, '0')} ${String(gen).padStart(5, '0')} n \n`;
    }
    i = j;
  }
  return text;
}

function firstPage(file: PdfFile, pages: { num: number; gen: number }): { num: number; gen: number } {
  let node = pages;
  for (let depth = 0; depth < MAX_PAGE_TREE_DEPTH; depth++) {
    const dict = readDictObject(file, node.num);
    if (tokenOf(dict.get('/Type')) === '/Page') return node;
    const kids = dict.get('/Kids');
    if (kids?.kind !== 'array' || kids.items.length === 0) throw new PdfSyntaxError('page tree without pages');
    node = refOf(kids.items[0]);
  }
  throw new PdfSyntaxError('page tree too deep');
}

function withItem(annots: PdfValue | undefined, item: PdfValue): PdfValue {
  if (annots === undefined) return { kind: 'array', items: [item] };
  if (annots.kind !== 'array') throw new PdfSyntaxError('/Annots is not an inline array');
  return { kind: 'array', items: [...annots.items, item] };
}
