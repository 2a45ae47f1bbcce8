import { decodeXml } from './xml-text.js';
import { textWidth } from './measure.js';

/**
 * beautiful-mermaid sizes boxes for text widths it estimates for Inter; Quire sets the labels in
 * its own face, which runs wider on some words. A label wider than the box (or circle) it sits
 * in is set smaller, just enough to fit, instead of running over the outline.
 */
export function fitLabels(svg: string): string {
  return svg.replace(
    /(<g class="(?:node|edge-label)"[^>]*>\s*<(rect|circle)\b([^>]*)\/>\s*)<text\b([^>]*)>(.*?)<\/text>/g,
    (whole, before: string, shape: string, shapeAttributes: string, textAttributes: string, inner: string) => {
      const number = (name: string, attributes: string) => Number(new RegExp(`\\b${name}="([-\\d.]+)"`).exec(attributes)?.[1] ?? 0);
      const room =
        shape === 'circle' ? 2 * number('r', shapeAttributes) * 0.82 : number('width', shapeAttributes) - 2 * Math.max(5, number('rx', shapeAttributes) * 0.8);
      const size = number('font-size', textAttributes) || 16;
      const bold = number('font-weight', textAttributes) >= 600;
      const lines = inner.includes('<tspan') ? [...inner.matchAll(/<tspan\b[^>]*>([^<]*)<\/tspan>/g)].map((match) => match[1]!) : [inner];
      const widest = Math.max(...lines.map((line) => textWidth(decodeXml(line), size, { family: 'serif', weight: bold ? 'bold' : 'regular', italic: false })));
      if (!(room > 0) || widest <= room) return whole;
      const scale = room / widest;
      const attributes = textAttributes
        .replace(/\bfont-size="[\d.]+"/, `font-size="${size * scale}"`)
        .replace(/\bdy="(-?[\d.]+)"/, (_, dy: string) => `dy="${Number(dy) * scale}"`);
      return `${before}<text${attributes}>${inner}</text>`;
    },
  );
}
