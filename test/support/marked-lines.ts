import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pdfFile } from './pdf-tools.js';

const run = promisify(execFile);

type PdfValue = string | number | boolean | null | PdfValue[] | { [key: string]: PdfValue };
interface QpdfObject {
  value?: PdfValue;
  stream?: { data: string; dict: Record<string, PdfValue> };
}

/**
 * Where the structure elements of one role (`Code`, `P`, …) draw their text, read from the file
 * itself (qpdf's JSON): for each element in document order, a map from page number to the
 * baselines of its text lines there, in points from the page's top. A code block split over two
 * pages is one element with lines on both.
 */
export async function elementLines(pdf: Uint8Array, role: string): Promise<Array<Map<number, number[]>>> {
  const { objects, pages } = await readPdf(pdf);
  // Per page: MCID → baselines of the text lines drawn inside its marked content.
  const baselines = new Map<string, Map<number, number[]>>();
  for (const page of pages) {
    const byId = new Map<number, number[]>();
    for (const run of textRuns(page.content, page.height)) {
      if (run.mcid === null) continue;
      const lines = byId.get(run.mcid) ?? [];
      if (!lines.includes(run.baseline))
        byId.set(
          run.mcid,
          [...lines, run.baseline].sort((a, b) => a - b),
        );
    }
    baselines.set(page.ref, byId);
  }
  const pageRefs = pages.map((page) => page.ref);

  const elements: Array<Map<number, number[]>> = [];
  for (const object of Object.values(objects)) {
    const element = object.value as Record<string, PdfValue> | undefined;
    if (element?.['/Type'] !== '/StructElem' || element['/S'] !== `/${role}`) continue;
    const drawn = new Map<number, number[]>();
    const kids = Array.isArray(element['/K']) ? element['/K'] : [element['/K']!];
    for (const kid of kids) {
      const reference = typeof kid === 'number' ? { page: element['/Pg'] as string, mcid: kid } : markedReference(kid);
      if (!reference) continue;
      const number = pageRefs.indexOf(reference.page) + 1;
      drawn.set(
        number,
        [...(drawn.get(number) ?? []), ...(baselines.get(reference.page)?.get(reference.mcid) ?? [])].sort((a, b) => a - b),
      );
    }
    elements.push(drawn);
  }
  return elements;
}

/** A line of a page's tagged text: its baseline from the page's top, and whether it ends in a hyphen drawn at a word break. */
export interface PageLine {
  baseline: number;
  hyphenated: boolean;
}

/**
 * Every line of tagged text (page furniture, drawn as artifacts, left out) of every page, top to
 * bottom. A word hyphenated at a line's end is drawn as its first part, in a span whose ActualText
 * is the whole word, then the hyphen alone in an empty one: a line ending so ends in a hyphen.
 */
export async function pageLines(pdf: Uint8Array): Promise<PageLine[][]> {
  const { pages } = await readPdf(pdf);
  return pages.map((page) => {
    const runs = textRuns(page.content, page.height).filter((run) => run.mcid !== null);
    const lines = new Map<number, typeof runs>();
    for (const run of runs) lines.set(run.baseline, [...(lines.get(run.baseline) ?? []), run]);
    return [...lines]
      .sort((a, b) => a[0] - b[0])
      .map(([baseline, inLine]) => {
        const [last, before] = [...inLine].sort((a, b) => b.x - a.x);
        return { baseline, hyphenated: last!.empty && last!.glyphs === 1 && before?.whole === true };
      });
  });
}

/**
 * The characters drawn as missing-glyph boxes (glyph 0, .notdef, which the engine draws for a
 * character no font has, in a span whose ActualText holds the character), page by page.
 */
export async function boxedCharacters(pdf: Uint8Array): Promise<Array<{ page: number; text: string }>> {
  const { pages } = await readPdf(pdf);
  return pages.flatMap((page, index) =>
    [...page.content.matchAll(/\/ActualText <feff([0-9a-f]*)>>>\s*BDC([\s\S]*?)\bEMC\b/gi)]
      .filter((span) => [...span[2]!.matchAll(/\[([^\]]*)\]\s*TJ/g)].some((array) => glyphCodes(array[1]!).includes('0000')))
      .map((span) => ({ page: index + 1, text: Buffer.from(span[1]!, 'hex').swap16().toString('utf16le') })),
  );
}

interface TextRun {
  /** The marked content it is drawn in (its structure element's), null for an artifact. */
  mcid: number | null;
  baseline: number;
  x: number;
  /** Inside a span whose ActualText is empty (a hyphen drawn at a word break, and the rest of the word). */
  empty: boolean;
  /** Inside a span whose ActualText stands for more than the glyphs (a broken word's first part). */
  whole: boolean;
  /** Glyphs the run draws. */
  glyphs: number;
}

/** Each text position (`x y Tm`) in a content stream, with the marked content around it (which nests). */
function textRuns(content: string, pageHeight: number): TextRun[] {
  const runs: TextRun[] = [];
  const open: Array<{ mcid: number | null; empty: boolean; whole: boolean }> = [];
  for (const token of content.matchAll(/\/\w+\s*(<<[\s\S]*?>>)\s*BDC|\/\w+\s+BMC|\bEMC\b|(-?[\d.]+) (-?[\d.]+) Tm\s*(?:\[([^\]]*)\]\s*TJ)?/g)) {
    if (token[0] === 'EMC') open.pop();
    else if (token[0].endsWith('BDC')) {
      const mcid = /\/MCID (\d+)/.exec(token[1]!);
      open.push({ mcid: mcid ? Number(mcid[1]) : null, empty: /\/ActualText <feff>/i.test(token[1]!), whole: /\/ActualText <feff[0-9a-f]+>/i.test(token[1]!) });
    } else if (token[0].endsWith('BMC')) open.push({ mcid: null, empty: false, whole: false });
    else {
      const mcid = open.findLast((entry) => entry.mcid !== null)?.mcid ?? null;
      runs.push({
        mcid,
        baseline: Math.round((pageHeight - Number(token[3])) * 100) / 100,
        x: Number(token[2]),
        empty: open.some((entry) => entry.empty),
        whole: open.some((entry) => entry.whole),
        glyphs: glyphCodes(token[4] ?? '').length,
      });
    }
  }
  return runs;
}

/** The glyph codes a TJ array's strings hold, four hex digits each (codes side by side share one string). */
export function glyphCodes(array: string): string[] {
  return [...array.matchAll(/<([0-9a-f]*)>/gi)].flatMap((string) => string[1]!.match(/.{4}/g) ?? []);
}

interface ReadPdf {
  objects: Record<string, QpdfObject>;
  pages: Array<{ ref: string; height: number; content: string }>;
}

/** The file's objects (qpdf's JSON, streams decoded) and its pages in order with their content. */
async function readPdf(pdf: Uint8Array): Promise<ReadPdf> {
  const { stdout } = await run('qpdf', ['--json', '--json-stream-data=inline', '--decode-level=generalized', pdfFile(pdf)], { maxBuffer: 512 << 20 });
  const objects = (JSON.parse(stdout) as { qpdf: [unknown, Record<string, QpdfObject>] }).qpdf[1];
  const get = (ref: PdfValue | undefined): QpdfObject | undefined => (typeof ref === 'string' ? objects[`obj:${ref}`] : undefined);
  const dict = (ref: PdfValue | undefined) => (get(ref)?.value ?? {}) as Record<string, PdfValue>;
  const catalog = Object.values(objects).find((object) => (object.value as Record<string, PdfValue> | undefined)?.['/Type'] === '/Catalog')!;
  const refs: string[] = [];
  const visit = (ref: string) => {
    const node = dict(ref);
    if (node['/Type'] === '/Pages') for (const kid of node['/Kids'] as string[]) visit(kid);
    else refs.push(ref);
  };
  visit((catalog.value as Record<string, PdfValue>)['/Pages'] as string);
  const pages = refs.map((ref) => {
    const contents = dict(ref)['/Contents'];
    const streams = (Array.isArray(contents) ? contents : [contents]).map((part) => Buffer.from(get(part)!.stream!.data, 'base64').toString('latin1'));
    return { ref, height: (dict(ref)['/MediaBox'] as number[])[3]!, content: streams.join('\n') };
  });
  return { objects, pages };
}

function markedReference(kid: PdfValue): { page: string; mcid: number } | null {
  if (kid === null || typeof kid !== 'object' || Array.isArray(kid) || kid['/Type'] !== '/MCR') return null;
  return { page: kid['/Pg'] as string, mcid: kid['/MCID'] as number };
}
