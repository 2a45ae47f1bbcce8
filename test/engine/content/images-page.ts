import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { pdfFile } from '../../support/pdf-tools.js';

const run = promisify(execFile);

/** Page 1 rendered by poppler at 72 dpi: one pixel per point. */
export interface Page {
  width: number;
  height: number;
  rgb(x: number, y: number): [number, number, number];
}

export async function renderPage(pdf: Uint8Array): Promise<Page> {
  const file = pdfFile(pdf);
  const prefix = `${file}-page`;
  await run('pdftoppm', ['-f', '1', '-l', '1', '-r', '72', '-png', '-singlefile', file, prefix]);
  const png = PNG.sync.read(readFileSync(`${prefix}.png`));
  return {
    width: png.width,
    height: png.height,
    rgb: (x, y) => {
      const at = (y * png.width + x) * 4;
      return [png.data[at]!, png.data[at + 1]!, png.data[at + 2]!];
    },
  };
}

/** The box of pixels within `tolerance` of `color`, or null when there are none. */
export function boxOf(
  page: Page,
  color: readonly [number, number, number],
  tolerance = 40,
): { left: number; top: number; right: number; bottom: number; count: number } | null {
  let box: { left: number; top: number; right: number; bottom: number; count: number } | null = null;
  for (let y = 0; y < page.height; y++) {
    for (let x = 0; x < page.width; x++) {
      const [r, g, b] = page.rgb(x, y);
      if (Math.abs(r - color[0]) + Math.abs(g - color[1]) + Math.abs(b - color[2]) > tolerance) continue;
      if (!box) box = { left: x, top: y, right: x, bottom: y, count: 0 };
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
      box.count++;
    }
  }
  return box;
}

/** Raster images in the PDF as `pdfimages -list` lists them (soft masks included), with their page. */
export async function imageList(pdf: Uint8Array): Promise<Array<{ page: number; type: string; width: number; height: number; encoding: string }>> {
  const { stdout } = await run('pdfimages', ['-list', pdfFile(pdf)]);
  return stdout
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => {
      const columns = line.trim().split(/\s+/);
      return { page: Number(columns[0]), type: columns[2]!, width: Number(columns[3]), height: Number(columns[4]), encoding: columns[8]! };
    });
}

/** Left edge, in points, of the first word on page 1 equal to `word` (poppler's word boxes). */
export async function wordLeft(pdf: Uint8Array, word: string): Promise<number | null> {
  const { stdout } = await run('pdftotext', ['-f', '1', '-l', '1', '-bbox', pdfFile(pdf), '-'], { encoding: 'utf8' });
  for (const match of stdout.matchAll(/<word xMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g)) if (match[2] === word) return Number(match[1]);
  return null;
}
