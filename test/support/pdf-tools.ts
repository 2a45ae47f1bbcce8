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
  const names = list.split('\n').slice(1).map((line) => line.replace(/^\d+:\s*/, '').trim()).filter(Boolean);
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

export interface WordBox {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word poppler finds, with its box in points from the page's top left (`pdftotext -bbox`). */
export async function wordBoxes(bytes: Uint8Array): Promise<WordBox[]> {
  const html = await tool('pdftotext', ['-bbox', pdfFile(bytes), '-']);
  const boxes: WordBox[] = [];
  let page = 0;
  for (const match of html.matchAll(/<page\b|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
    if (match[0] === '<page') page++;
    else boxes.push({ page, text: decodeEntities(match[5]!), xMin: Number(match[1]), yMin: Number(match[2]), xMax: Number(match[3]), yMax: Number(match[4]) });
  }
  return boxes;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name]!);
}
