import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { pdfFile } from './pdf-tools.js';
import { openPdf } from './pdfjs.js';

const run = promisify(execFile);

/** The PDF with its streams uncompressed (qpdf's QDF form), as text to search for operators. */
export async function uncompressed(bytes: Uint8Array): Promise<string> {
  const input = pdfFile(bytes);
  const output = `${input}.qdf.pdf`;
  await run('qpdf', ['--qdf', '--object-streams=disable', input, output]);
  return readFileSync(output, 'latin1');
}

/** What the page content paints: filled paths, and the RGB colours (0–255) of every fill. */
export async function paintedContent(bytes: Uint8Array): Promise<{ fills: number; colors: Array<[number, number, number]> }> {
  const text = await uncompressed(bytes);
  const fills = text.match(/^(?:f\*?|B\*?)$/gm)?.length ?? 0;
  const colors = [...text.matchAll(/^([\d.]+) ([\d.]+) ([\d.]+) (?:scn|rg)$/gm)].map(
    (match) => [1, 2, 3].map((i) => Math.round(Number(match[i]) * 255)) as [number, number, number],
  );
  return { fills, colors };
}

/** Raster images placed in the PDF, as `pdfimages -list` counts them. */
export async function rasterImageCount(bytes: Uint8Array): Promise<number> {
  const { stdout } = await run('pdfimages', ['-list', pdfFile(bytes)]);
  return stdout.trim().split('\n').slice(2).length;
}

/** Structure elements of a role, with their alternative text, in reading order (pdf.js). */
export async function structureAlts(bytes: Uint8Array, role: string): Promise<string[]> {
  const pdf = await openPdf(bytes);
  const alts: string[] = [];
  interface Node {
    role?: string;
    alt?: string;
    children?: Node[];
  }
  const visit = (node: Node) => {
    if (node.role === role) alts.push(node.alt ?? '');
    for (const child of node.children ?? []) visit(child);
  };
  for (let page = 1; page <= pdf.numPages; page++) visit((await (await pdf.getPage(page)).getStructTree()) as Node);
  await pdf.destroy();
  return alts;
}

/**
 * Symbols a real scanner reads on a page: poppler renders it at 300 dpi and zbarimg (Debian's
 * zbar-tools) decodes it: one `TYPE:data` line per symbol, e.g. `EAN-13:9780201379624` (data
 * with line breaks keeps them).
 */
export async function scanPage(bytes: Uint8Array, page = 1): Promise<string> {
  const file = pdfFile(bytes);
  const prefix = `${file}-scan`;
  await run('pdftoppm', ['-f', String(page), '-l', String(page), '-r', '300', '-singlefile', '-png', file, prefix]);
  try {
    const { stdout } = await run('zbarimg', ['-q', `${prefix}.png`]);
    return stdout;
  } catch (error) {
    // zbarimg exits with 4 when it finds no symbol.
    if ((error as { code?: number }).code === 4) return '';
    throw error;
  }
}

/** One marked-content sequence of a page's content: its tag (`P`, `Artifact`, …) and the fill colours set in it. */
export interface MarkedSequence {
  tag: string;
  colors: Array<[number, number, number]>;
}

/** Every marked-content sequence of every page, in content order, with the RGB colours (0–255) it fills with. */
export async function markedSequences(bytes: Uint8Array): Promise<MarkedSequence[]> {
  const text = await uncompressed(bytes);
  const sequences: MarkedSequence[] = [];
  let current: MarkedSequence | null = null;
  for (const line of text.split('\n')) {
    const open = /^\/(\w+)(?: <<.*>>)? (?:BDC|BMC)$/.exec(line);
    if (open) {
      current = { tag: open[1]!, colors: [] };
      sequences.push(current);
      continue;
    }
    if (line === 'EMC') current = null;
    const color = /^([\d.]+) ([\d.]+) ([\d.]+) (?:scn|rg)$/.exec(line);
    if (color && current) current.colors.push([1, 2, 3].map((i) => Math.round(Number(color[i]) * 255)) as [number, number, number]);
  }
  return sequences;
}

/** Painting operators (text, paths, images) outside any marked-content sequence: PDF/UA wants none. */
export async function unmarkedPainting(bytes: Uint8Array): Promise<string[]> {
  const text = await uncompressed(bytes);
  const found: string[] = [];
  let depth = 0;
  for (const line of text.split('\n')) {
    if (/ (?:BDC|BMC)$/.test(line)) depth++;
    else if (line === 'EMC') depth--;
    else if (depth === 0 && /(?:^| )(?:TJ|Tj|f\*?|B\*?|S|Do)$/.test(line)) found.push(line);
  }
  return found;
}
