import type { FontStyle } from '../../text/font-catalog.js';
import { textWidth } from './measure.js';
import { decodeXml } from './xml-text.js';

/**
 * beautiful-mermaid writes class members and ER attributes as one `<text>` of differently
 * coloured `<tspan>`s that flow one after another. A Drawing's text items are placed one by one,
 * so each run gets its own x here, measured in the face Quire will draw it with; `em` offsets
 * become numbers the SVG converter reads.
 */
export function positionTextRuns(svg: string): string {
  return svg.replace(/<text\b([^>]*)>(.*?)<\/text>/g, (_, attributeText: string, inner: string) => {
    const size = Number(/\bfont-size="([\d.]+)"/.exec(attributeText)?.[1] ?? 16);
    let attributes = attributeText.replace(/\bdy="(-?[\d.]+)em"/, (_, value: string) => `dy="${Number(value) * size}"`);
    if (!inner.includes('<tspan') || /<tspan\b[^>]*\sx=/.test(inner)) return `<text${attributes}>${inner}</text>`;
    const font: FontStyle = {
      family: /\bclass="[^"]*\bmono\b/.test(attributes) ? 'mono' : 'serif',
      weight: Number(/\bfont-weight="(\d+)"/.exec(attributes)?.[1] ?? 400) >= 600 ? 'bold' : 'regular',
      italic: /\bfont-style="italic"/.test(attributes),
    };
    const runs = [...inner.matchAll(/<tspan\b([^>]*)>([^<]*)<\/tspan>|([^<]+)/g)].map((match) => ({
      attributes: match[1] ?? '',
      text: match[2] ?? match[3] ?? '',
    }));
    const widths = runs.map((run) => textWidth(decodeXml(run.text).replace(/\s+/g, ' '), size, font));
    const total = widths.reduce((sum, width) => sum + width, 0);
    const anchor = /\btext-anchor="(middle|end)"/.exec(attributes)?.[1];
    let x = Number(/\bx="(-?[\d.]+)"/.exec(attributes)?.[1] ?? 0) - (anchor === 'end' ? total : anchor === 'middle' ? total / 2 : 0);
    attributes = attributes.replace(/\s*text-anchor="[^"]*"/, '');
    const placed = runs.map((run, index) => {
      const tspan = `<tspan x="${x}"${run.attributes}>${run.text}</tspan>`;
      x += widths[index]!;
      return tspan;
    });
    return `<text${attributes}>${placed.join('')}</text>`;
  });
}
