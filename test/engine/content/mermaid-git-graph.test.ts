import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { renderMermaid } from '#engine/content/mermaid/index.js';
import { textWidth } from '#engine/content/mermaid/measure.js';
import { applyMatrix } from '#engine/drawing/matrix.js';
import type { Drawing, DrawingItem } from '#engine/drawing/drawing.js';
import { FIXTURES } from '../../support/fixtures.js';

type Box = { text: string; x1: number; y1: number; x2: number; y2: number };
type Segment = readonly [number, number, number, number];

/** Each text's ink box, from its anchor, measured width and size (ascent 0.75, descent 0.25 of it). */
function textBoxes(drawing: Drawing): Box[] {
  return drawing.items.flatMap((item) => {
    if (item.kind !== 'text') return [];
    const width = textWidth(item.text, item.size, item.font);
    const left = item.anchor === 'start' ? item.x : item.anchor === 'middle' ? item.x - width / 2 : item.x - width;
    const [x1, y1] = applyMatrix(item.transform, left, item.y - 0.75 * item.size);
    const [x2, y2] = applyMatrix(item.transform, left + width, item.y + 0.25 * item.size);
    return [{ text: item.text, x1, y1, x2, y2 }];
  });
}

/** The straight runs of every stroked, unfilled path (curves by their end points, which is enough for the elbows' short corners). */
function lineSegments(drawing: Drawing): Segment[] {
  return drawing.items.flatMap((item: DrawingItem) => {
    if (item.kind !== 'path' || item.fill !== null || !item.stroke) return [];
    const segments: Segment[] = [];
    let at: [number, number] | null = null;
    for (const [, command, args] of item.d.matchAll(/([MLQ])([^MLQZ]*)/g)) {
      const numbers = args!
        .trim()
        .split(/[\s,]+/)
        .map(Number);
      const to = applyMatrix(item.transform, numbers.at(-2)!, numbers.at(-1)!);
      if (command !== 'M' && at) segments.push([at[0], at[1], to[0], to[1]]);
      at = to;
    }
    return segments;
  });
}

/** Whether a segment passes through a box (Liang–Barsky clipping). */
function crosses([x1, y1, x2, y2]: Segment, box: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = x2 - x1;
  const dy = y2 - y1;
  for (const [p, q] of [
    [-dx, x1 - box.x1],
    [dx, box.x2 - x1],
    [-dy, y1 - box.y1],
    [dy, box.y2 - y1],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
    }
  }
  return t0 < t1;
}

const overlaps = (a: Box, b: Box) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

/** Every label that touches a line or another label, named. */
function collisions(drawing: Drawing): string[] {
  const boxes = textBoxes(drawing);
  const segments = lineSegments(drawing);
  const found: string[] = [];
  boxes.forEach((box, index) => {
    if (segments.some((segment) => crosses(segment, box))) found.push(`"${box.text}" on a line`);
    for (const other of boxes.slice(index + 1)) if (overlaps(box, other)) found.push(`"${box.text}" on "${other.text}"`);
  });
  return found;
}

const DOCS = `${FIXTURES}/mermaid-docs`;

describe('mermaid git graphs', () => {
  it('should keep commit labels, tags and branch names off every line and off each other', async () => {
    const ship =
      '\n  commit id: "keel"\n  branch deck\n  commit id: "plank-with-a-long-name"\n  branch mast\n  commit id: "sail"\n  checkout deck\n  commit id: "hull" tag: "v0.1"\n  checkout main\n  merge mast\n  commit id: "launch"';
    const sources = [
      ...['gitGraph', 'gitGraph TB:', 'gitGraph BT:'].map((header) => `${header}${ship}`),
      ...readdirSync(DOCS)
        .filter((name) => name.startsWith('gitgraph-'))
        .map((name) => readFileSync(`${DOCS}/${name}`, 'utf8')),
    ];
    const found = [];
    for (const source of sources) {
      const result = await renderMermaid(source, { theme: 'light', signal: undefined });
      // Diagrams Quire cannot read are the corpus test's concern.
      if (result.ok && collisions(result.drawing).length) found.push(`${collisions(result.drawing).join(', ')} in\n${source}`);
    }
    assert.deepEqual(found, []);
  });
});
