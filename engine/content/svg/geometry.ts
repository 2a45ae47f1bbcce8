import { IDENTITY, multiply, type Matrix } from '../../drawing/matrix.js';

const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi;

export function numbers(text: string | undefined): number[] {
  return (text ?? '').match(NUMBER)?.map(Number) ?? [];
}

/** The SVG `transform` attribute as one matrix (functions apply right to left). */
export function parseTransform(text: string | undefined): Matrix {
  if (!text) return IDENTITY;
  let matrix: Matrix = IDENTITY;
  for (const match of text.matchAll(/(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)/g)) {
    const args = numbers(match[2]);
    matrix = multiply(matrix, functionMatrix(match[1]!, args));
  }
  return matrix;
}

function functionMatrix(name: string, args: number[]): Matrix {
  const [a = 0, b, c] = args;
  switch (name) {
    case 'matrix':
      return args.length === 6 ? (args as unknown as Matrix) : IDENTITY;
    case 'translate':
      return [1, 0, 0, 1, a, b ?? 0];
    case 'scale':
      return [a, 0, 0, b ?? a, 0, 0];
    case 'rotate': {
      const radians = (a * Math.PI) / 180;
      const cos = Math.cos(radians);
      const sin = Math.sin(radians);
      const rotation: Matrix = [cos, sin, -sin, cos, 0, 0];
      if (b === undefined || c === undefined) return rotation;
      return multiply(multiply([1, 0, 0, 1, b, c], rotation), [1, 0, 0, 1, -b, -c]);
    }
    case 'skewX':
      return [1, 0, Math.tan((a * Math.PI) / 180), 1, 0, 0];
    default:
      return [1, Math.tan((a * Math.PI) / 180), 0, 1, 0, 0];
  }
}

/** Basic shapes as path data, so painting knows one kind of shape. */
export function shapePath(name: string, attributes: Record<string, string>): string | null {
  const n = (key: string) => Number.parseFloat(attributes[key] ?? '0') || 0;
  switch (name) {
    case 'path':
      return attributes.d ?? null;
    case 'rect': {
      const [x, y, width, height] = [n('x'), n('y'), n('width'), n('height')];
      if (width <= 0 || height <= 0) return null;
      let rx = attributes.rx !== undefined ? n('rx') : attributes.ry !== undefined ? n('ry') : 0;
      let ry = attributes.ry !== undefined ? n('ry') : rx;
      rx = Math.min(rx, width / 2);
      ry = Math.min(ry, height / 2);
      if (rx <= 0 || ry <= 0) return `M${x} ${y}H${x + width}V${y + height}H${x}Z`;
      return `M${x + rx} ${y}H${x + width - rx}A${rx} ${ry} 0 0 1 ${x + width} ${y + ry}V${y + height - ry}A${rx} ${ry} 0 0 1 ${x + width - rx} ${y + height}H${x + rx}A${rx} ${ry} 0 0 1 ${x} ${y + height - ry}V${y + ry}A${rx} ${ry} 0 0 1 ${x + rx} ${y}Z`;
    }
    case 'circle':
      return ellipse(n('cx'), n('cy'), n('r'), n('r'));
    case 'ellipse':
      return ellipse(n('cx'), n('cy'), n('rx'), n('ry'));
    case 'line':
      return `M${n('x1')} ${n('y1')}L${n('x2')} ${n('y2')}`;
    case 'polyline':
    case 'polygon': {
      const points = numbers(attributes.points);
      if (points.length < 4) return null;
      let d = `M${points[0]} ${points[1]}`;
      for (let i = 2; i + 1 < points.length; i += 2) d += `L${points[i]} ${points[i + 1]}`;
      return name === 'polygon' ? `${d}Z` : d;
    }
    default:
      return null;
  }
}

function ellipse(cx: number, cy: number, rx: number, ry: number): string | null {
  if (rx <= 0 || ry <= 0) return null;
  return `M${cx - rx} ${cy}A${rx} ${ry} 0 1 0 ${cx + rx} ${cy}A${rx} ${ry} 0 1 0 ${cx - rx} ${cy}Z`;
}
