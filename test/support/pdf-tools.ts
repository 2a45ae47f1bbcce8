import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), 'quire-test-'));
let counter = 0;

/** Writes PDF bytes to a temporary file for the poppler tools. */
export function pdfFile(bytes: Uint8Array, name = 'document'): string {
  const file = path.join(scratch, `${name}-${++counter}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

async function tool(command: string, args: string[]): Promise<string> {
  const { stdout } = await run(command, args, { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });
  return stdout;
}

/** Text in reading order as poppler extracts it (honours ActualText). */
export async function pdftotext(bytes: Uint8Array, options: { layout?: boolean; first?: number; last?: number } = {}): Promise<string> {
  const args = [];
  if (options.layout) args.push('-layout');
  if (options.first) args.push('-f', String(options.first));
  if (options.last) args.push('-l', String(options.last));
  return tool('pdftotext', [...args, pdfFile(bytes), '-']);
}

export async function pdfinfo(bytes: Uint8Array): Promise<Record<string, string>> {
  const out = await tool('pdfinfo', [pdfFile(bytes)]);
  const info: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const match = /^([^:]+):\s*(.*)$/.exec(line);
    if (match) info[match[1]!.trim()] = match[2]!.trim();
  }
  return info;
}

export interface PageSize {
  width: number;
  height: number;
  rotation: number;
}

/** Each page's size in points and its /Rotate, as pdfinfo reports them. */
export async function pageSizes(bytes: Uint8Array): Promise<PageSize[]> {
  const out = await tool('pdfinfo', ['-f', '1', '-l', '100000', pdfFile(bytes)]);
  const pages: PageSize[] = [];
  for (const match of out.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm))
    pages[Number(match[1]) - 1] = { width: Number(match[2]), height: Number(match[3]), rotation: 0 };
  for (const match of out.matchAll(/^Page\s+(\d+) rot:\s+(\d+)/gm)) pages[Number(match[1]) - 1]!.rotation = Number(match[2]);
  return pages;
}

export interface WordBox {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

const ENTITIES: Record<string, string> = { apos: "'", quot: '"', lt: '<', gt: '>', amp: '&' };

/** Every page's size and its words with their boxes (points, from the top left), from `pdftotext -bbox`. */
export async function wordBoxes(bytes: Uint8Array): Promise<Array<{ width: number; height: number; words: WordBox[] }>> {
  const out = await tool('pdftotext', ['-bbox', pdfFile(bytes), '-']);
  return [...out.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)].map((page) => ({
    width: Number(page[1]),
    height: Number(page[2]),
    words: [...page[3]!.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((word) => ({
      text: word[5]!.replace(/&(apos|quot|lt|gt|amp);/g, (_, name: string) => ENTITIES[name]!),
      xMin: Number(word[1]),
      yMin: Number(word[2]),
      xMax: Number(word[3]),
      yMax: Number(word[4]),
    })),
  }));
}

/** The structure tree as `pdfinfo -struct-text` prints it. */
export async function structureText(bytes: Uint8Array): Promise<string> {
  return tool('pdfinfo', ['-struct-text', pdfFile(bytes)]);
}

export interface FontRow {
  name: string;
  type: string;
  embedded: boolean;
  subset: boolean;
  unicode: boolean;
}

export async function pdffonts(bytes: Uint8Array): Promise<FontRow[]> {
  const out = await tool('pdffonts', [pdfFile(bytes)]);
  return out
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const columns = line.trim().split(/\s+/);
      const [emb, sub, uni] = columns.slice(-5, -2);
      return { name: columns[0]!, type: columns.slice(1, -6).join(' '), embedded: emb === 'yes', subset: sub === 'yes', unicode: uni === 'yes' };
    });
}

/** qpdf's syntax check; resolves to its output, rejects when it finds errors. */
export async function qpdfCheck(bytes: Uint8Array): Promise<string> {
  return tool('qpdf', ['--check', pdfFile(bytes)]);
}

/** Files attached to the PDF, by name, extracted with pdfdetach. */
export async function attachments(bytes: Uint8Array): Promise<Map<string, string>> {
  const file = pdfFile(bytes);
  const list = await tool('pdfdetach', ['-list', file]);
  const names = list
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/^\d+:\s*/, '').trim())
    .filter(Boolean);
  const out = new Map<string, string>();
  for (const [index, name] of names.entries()) {
    const target = path.join(scratch, `attachment-${++counter}`);
    await tool('pdfdetach', ['-save', String(index + 1), '-o', target, file]);
    out.set(name, (await import('node:fs')).readFileSync(target, 'utf8'));
  }
  return out;
}

/** RGB of one pixel of page 1 rendered at 20 dpi. */
export async function pixel(bytes: Uint8Array, x: number, y: number): Promise<[number, number, number]> {
  const file = pdfFile(bytes);
  const prefix = path.join(scratch, `pixel-${++counter}`);
  await tool('pdftoppm', ['-f', '1', '-l', '1', '-r', '20', '-singlefile', file, prefix]);
  const { readFileSync } = await import('node:fs');
  const ppm = readFileSync(`${prefix}.ppm`);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
  const width = Number(header[1]);
  const offset = header[0].length + (y * width + x) * 3;
  return [ppm[offset]!, ppm[offset + 1]!, ppm[offset + 2]!];
}

export function writeFixture(name: string, content: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, content);
  return file;
}

/** A line of text as poppler groups it, in points from the page's top left. */
export interface TextLine {
  page: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  text: string;
  /** The last line of its block (a paragraph's last line, a heading, a code line on its own). */
  lastInBlock: boolean;
}

/** Every line of every page with its box (`pdftotext -bbox-layout`). */
export async function textLines(bytes: Uint8Array): Promise<TextLine[]> {
  const out = await tool('pdftotext', ['-bbox-layout', pdfFile(bytes), '-']);
  const lines: TextLine[] = [];
  out
    .split('<page ')
    .slice(1)
    .forEach((page, index) => {
      for (const block of page.matchAll(/<block [^>]*>([\s\S]*?)<\/block>/g)) {
        const inBlock = [...block[1]!.matchAll(/<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([\s\S]*?)<\/line>/g)];
        inBlock.forEach((line, i) => {
          const words = [...line[5]!.matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((word) => decodeEntities(word[1]!));
          lines.push({
            page: index + 1,
            left: Number(line[1]),
            top: Number(line[2]),
            right: Number(line[3]),
            bottom: Number(line[4]),
            text: words.join(' '),
            lastInBlock: i === inBlock.length - 1,
          });
        });
      }
    });
  return lines;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name]!);
}
