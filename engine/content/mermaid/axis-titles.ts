import { REGULAR, textWidth, wrapText } from './measure.js';
import { decodeXml } from './xml-text.js';

/** Axis titles are set no smaller than this share of their size to fit beside the axis. */
const SMALLEST = 0.7;

/**
 * xychart titles its vertical axis with text turned a quarter round, which a Drawing cannot
 * turn (its text is set upright in Quire's fonts). Such a title is set upright instead, wrapped
 * to the margin left of the axis labels and centred where it was.
 */
export function uprightAxisTitles(svg: string): string {
  const rotated = /<text\b([^>]*?)\s*transform="rotate\(-90,\s*([-\d.]+),\s*([-\d.]+)\)"([^>]*)>([^<]*)<\/text>/g;
  if (!rotated.test(svg)) return svg;
  // The axis labels right-aligned beside the axis: the margin ends at the widest one.
  let margin = Number.POSITIVE_INFINITY;
  for (const match of svg.matchAll(/<text\b([^>]*text-anchor="end"[^>]*)>([^<]*)<\/text>/g)) {
    const x = Number(/\bx="([-\d.]+)"/.exec(match[1]!)?.[1]);
    const size = Number(/\bfont-size="([\d.]+)"/.exec(match[1]!)?.[1] ?? 14);
    if (Number.isFinite(x)) margin = Math.min(margin, x - textWidth(decodeXml(match[2]!), size));
  }
  return svg.replace(rotated, (_, before: string, x: string, y: string, after: string, content: string) => {
    const attributes = `${before}${after}`;
    const size = Number(/\bfont-size="([\d.]+)"/.exec(attributes)?.[1] ?? 14);
    const right = Number.isFinite(margin) ? margin - 8 : 2 * Number(x);
    const room = Math.max(right - 4, 10);
    const title = decodeXml(content);
    const longestWord = Math.max(...title.split(/\s+/).map((word) => textWidth(word, size, REGULAR)));
    const fitted = size * Math.max(SMALLEST, Math.min(1, room / longestWord));
    const lines = wrapText(title, fitted, room);
    const leading = fitted * 1.2;
    const centre = 4 + room / 2;
    const tspans = lines
      .map((line, index) => `<tspan x="${centre}" y="${Number(y) + (index - (lines.length - 1) / 2) * leading}">${escapeXml(line)}</tspan>`)
      .join('');
    const kept = attributes.replace(/\s*\b(x|y|font-size)="[^"]*"/g, '');
    return `<text x="${centre}" y="${y}" font-size="${fitted}"${kept}>${tspans}</text>`;
  });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
