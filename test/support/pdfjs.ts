import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
}

export interface LinkAnnotation {
  page: number;
  url: string | null;
  dest: string | null;
  contents: string;
}

export async function links(bytes: Uint8Array): Promise<LinkAnnotation[]> {
  const pdf = await openPdf(bytes);
  const out: LinkAnnotation[] = [];
  for (let page = 1; page <= pdf.numPages; page++) {
    const annotations = await (await pdf.getPage(page)).getAnnotations();
    for (const annotation of annotations) {
      if (annotation.subtype !== 'Link') continue;
      out.push({
        page,
        url: annotation.url ?? null,
        dest: typeof annotation.dest === 'string' ? annotation.dest : null,
        contents: annotation.contentsObj?.str ?? '',
      });
    }
  }
  await pdf.destroy();
  return out;
}

export interface OutlineItem {
  title: string;
  dest: string | null;
  children: OutlineItem[];
}

export async function outline(bytes: Uint8Array): Promise<OutlineItem[]> {
  const pdf = await openPdf(bytes);
  const items = (await pdf.getOutline()) ?? [];
  const map = (list: typeof items): OutlineItem[] =>
    list.map((item) => ({ title: item.title, dest: typeof item.dest === 'string' ? item.dest : null, children: map(item.items) }));
  const result = map(items);
  await pdf.destroy();
  return result;
}

/** Page number (1-based) a named destination points at. */
export async function destinationPage(bytes: Uint8Array, name: string): Promise<number | null> {
  const pdf = await openPdf(bytes);
  const dest = await pdf.getDestination(name);
  const page = dest ? (await pdf.getPageIndex(dest[0])) + 1 : null;
  await pdf.destroy();
  return page;
}

/** Text items of one page in content order, as pdf.js reads them (it ignores ActualText). */
export async function pageTextItems(bytes: Uint8Array, page: number): Promise<string[]> {
  const pdf = await openPdf(bytes);
  const content = await (await pdf.getPage(page)).getTextContent();
  const strings = content.items.map((item) => ('str' in item ? item.str : ''));
  await pdf.destroy();
  return strings;
}

/** Text items of one page in content order with the font each is drawn in (its PostScript name, subset tag removed); a line's last item ends in "\n". */
export async function pageTextFonts(bytes: Uint8Array, page: number): Promise<Array<{ text: string; font: string }>> {
  const pdf = await openPdf(bytes);
  const pdfPage = await pdf.getPage(page);
  const content = await pdfPage.getTextContent();
  // Fonts are loaded by reading the page's operators; their objects carry the embedded names.
  await pdfPage.getOperatorList();
  const items = content.items.flatMap((item) => {
    if (!('str' in item)) return [];
    const font = (pdfPage.commonObjs.get(item.fontName) as { name: string }).name.replace(/^[A-Z]{6}\+/, '');
    return [{ text: item.hasEOL ? `${item.str}\n` : item.str, font }];
  });
  await pdf.destroy();
  return items;
}

/** Where a named destination lands: its page (1-based) and the top of the view, in points from the page's foot. */
export async function destinationPlace(bytes: Uint8Array, name: string): Promise<{ page: number; top: number } | null> {
  const pdf = await openPdf(bytes);
  const dest = await pdf.getDestination(name);
  const place = dest ? { page: (await pdf.getPageIndex(dest[0])) + 1, top: dest[3] as number } : null;
  await pdf.destroy();
  return place;
}

/** Where a text item holding `text` is first drawn: its page and baseline, in points from the page's foot. */
export async function textPlace(bytes: Uint8Array, text: string): Promise<{ page: number; baseline: number } | null> {
  const pdf = await openPdf(bytes);
  let place: { page: number; baseline: number } | null = null;
  for (let page = 1; page <= pdf.numPages && !place; page++) {
    const content = await (await pdf.getPage(page)).getTextContent();
    const item = content.items.find((entry) => 'str' in entry && entry.str.includes(text));
    if (item && 'str' in item) place = { page, baseline: item.transform[5] as number };
  }
  await pdf.destroy();
  return place;
}
