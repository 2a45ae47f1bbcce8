import { numbers } from '../svg/geometry.js';

interface Marker {
  refX: number;
  refY: number;
  /** `auto-start-reverse` turns the marker round at the start of a line. */
  reverseAtStart: boolean;
  content: string;
}

type Point = readonly [number, number];

/**
 * Class diagrams' composition and aggregation diamonds are anchored at their far point
 * (refX 0), which hides them under the box their line ends at; anchored at their near point
 * they sit on the box's edge, as Mermaid draws them.
 */
const DIAMONDS = new Set(['cls-composition', 'cls-aggregation']);

/**
 * beautiful-mermaid draws arrowheads and class-relation ends as SVG markers, which the SVG
 * converter does not draw: each marker used by a line or polyline becomes a group of its own,
 * turned along the line's end, scaled by the line's width (markerUnits="strokeWidth").
 */
export function expandMarkers(svg: string): string {
  const markers = new Map<string, Marker>();
  for (const match of svg.matchAll(/<marker\b([^>]*)>([\s\S]*?)<\/marker>/g)) {
    const attributes = readAttributes(match[1]!);
    if (!attributes.id) continue;
    markers.set(attributes.id, {
      refX: DIAMONDS.has(attributes.id) ? Number(attributes.markerWidth ?? 0) || 0 : Number(attributes.refX ?? 0) || 0,
      refY: Number(attributes.refY ?? 0) || 0,
      reverseAtStart: attributes.orient === 'auto-start-reverse',
      content: match[2]!,
    });
  }
  if (markers.size === 0) return svg;
  return svg.replace(/<(polyline|line)\b([^>]*?)\/>/g, (element, name: string, attributeText: string) => {
    const attributes = readAttributes(attributeText);
    const points = vertices(name, attributes);
    if (points.length < 2) return element;
    const scale = Number(attributes['stroke-width'] ?? 1) || 1;
    const placed: string[] = [];
    const start = markerOf(attributes['marker-start'], markers);
    if (start) placed.push(place(start, points[0]!, angle(points[1]!, points[0]!) + (start.reverseAtStart ? 0 : 180), scale));
    const end = markerOf(attributes['marker-end'], markers);
    if (end) placed.push(place(end, points.at(-1)!, angle(points.at(-2)!, points.at(-1)!), scale));
    return element + placed.join('');
  });
}

function markerOf(reference: string | undefined, markers: Map<string, Marker>): Marker | undefined {
  const id = reference && /url\(#([^)]+)\)/.exec(reference)?.[1];
  return id ? markers.get(id) : undefined;
}

/** The marker's content in a group: its reference point on the vertex, its x axis along the line. */
function place(marker: Marker, at: Point, degrees: number, scale: number): string {
  return `<g transform="translate(${at[0]} ${at[1]}) rotate(${degrees}) scale(${scale}) translate(${-marker.refX} ${-marker.refY})">${marker.content}</g>`;
}

/** Direction in degrees from `from` towards `to` (SVG's y axis points down). */
function angle(from: Point, to: Point): number {
  return (Math.atan2(to[1] - from[1], to[0] - from[0]) * 180) / Math.PI;
}

function vertices(name: string, attributes: Record<string, string>): Point[] {
  const values =
    name === 'line' ? [attributes.x1, attributes.y1, attributes.x2, attributes.y2].map((value) => Number(value ?? 0) || 0) : numbers(attributes.points);
  const points: Point[] = [];
  for (let index = 0; index + 1 < values.length; index += 2) {
    const point: Point = [values[index]!, values[index + 1]!];
    const last = points.at(-1);
    // A repeated vertex has no direction; the one before it does.
    if (!last || last[0] !== point[0] || last[1] !== point[1]) points.push(point);
  }
  return points;
}

function readAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of text.matchAll(/([\w:-]+)\s*=\s*"([^"]*)"/g)) attributes[match[1]!] = match[2]!;
  return attributes;
}
