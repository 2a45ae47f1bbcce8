/**
 * Layout tested as data: a document's frames written as text — a line an item, positions to a
 * hundredth of a point — and compared with a golden file under test/golden/. `UPDATE_GOLDEN=1`
 * writes the files instead of comparing (then read the diff: it is the change in layout).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LaidOutDocument, FrameItem } from '#engine/layout/frame.js';

export const GOLDEN = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../test/golden');

/** Compares `actual` with the golden file `name`, or writes it under UPDATE_GOLDEN=1. */
export function assertGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.UPDATE_GOLDEN !== '1' && process.env.CI) assert.fail(`${name} has no golden file: run the test with UPDATE_GOLDEN=1 and commit it`);
    writeFileSync(file, actual);
    return;
  }
  const expected = readFileSync(file, 'utf8');
  if (actual === expected) return;
  const [a, e] = [actual.split('\n'), expected.split('\n')];
  const first = a.findIndex((line, index) => line !== e[index]);
  assert.fail(
    `${name}: the layout changed from line ${first + 1} (UPDATE_GOLDEN=1 writes the new one):\n- ${e.slice(first, first + 3).join('\n- ')}\n+ ${a.slice(first, first + 3).join('\n+ ')}`,
  );
}

/** The frames as text: each page's size, then its items in paint order. */
export function framesText(laidOut: LaidOutDocument): string {
  const lines: string[] = [];
  laidOut.pages.forEach((page, index) => {
    lines.push(`page ${index + 1} ${n(page.width)}×${n(page.height)}`);
    for (const item of page.items) {
      const line = itemText(item);
      if (line) lines.push(`  ${line}`);
    }
  });
  return `${lines.join('\n')}\n`;
}

function itemText(item: FrameItem): string | null {
  switch (item.kind) {
    case 'glyphs': {
      const text = item.actualText ?? item.glyphs.map((glyph) => glyph.chars).join('');
      const width = item.glyphs.reduce((sum, glyph) => sum + glyph.advance, 0);
      return `text ${n(item.x)},${n(item.y)} w${n(width)} ${item.face} ${n(item.size)}${item.invisible ? ' invisible' : ''} ${JSON.stringify(text)}`;
    }
    case 'rect':
      return `rect ${n(item.x)},${n(item.y)} ${n(item.width)}×${n(item.height)}${item.fill ? ` fill ${item.fill.join(',')}` : ''}${item.stroke ? ` stroke ${item.stroke.join(',')}` : ''}`;
    case 'line':
      return `line ${n(item.x1)},${n(item.y1)} ${n(item.x2)},${n(item.y2)} ${n(item.width)}`;
    case 'image':
      return `image ${n(item.x)},${n(item.y)} ${n(item.width)}×${n(item.height)} ${item.image.width}×${item.image.height}px`;
    case 'link':
      return `link ${n(item.x)},${n(item.y)} ${n(item.width)}×${n(item.height)} ${item.target.kind === 'uri' ? item.target.uri : `#${item.target.dest}`}`;
    case 'dest':
      return `dest ${item.name} ${n(item.x)},${n(item.y)}`;
    case 'path':
      return `path ${item.matrix.map(n).join(',')} ${createHash('sha1').update(item.d).digest('hex').slice(0, 12)}`;
    case 'struct-mark':
      return null;
  }
}

function n(value: number): string {
  return String(Math.round(value * 100) / 100);
}
