import { createHash } from '../../hash.js';
import { parseDocument } from 'htmlparser2';
import { SvgError } from './svg-error.js';
import type { ChildNode, Document, Element } from 'domhandler';
import { canonicalizeSvg } from './canonical.js';
import { RendererBoundError } from '../../errors.js';
import { DEFAULT_BOUNDS, type RendererBounds } from '../../options.js';
import { checkImageBounds, sniffImage } from '../../resources/image.js';
import { decodeDataUri, isDataUri } from '../../resources/data-uri.js';
import { multiply, type Matrix } from '../../drawing/matrix.js';
import type { Drawing, DrawingItem } from '../../drawing/drawing.js';
import { lengthInPoints, parseColor, type Rgba } from './css-values.js';
import { numbers, parseTransform, shapePath } from './geometry.js';
import { checkExpansion } from './expansion.js';
import { checkNesting } from './nesting.js';
import { cascade, declarationsOf, INITIAL_STYLE, paintColor, readStyleSheets, withAlpha, type InheritedStyle, type SheetDeclarations } from './style.js';
import { checkDrawableNumbers } from './drawable-numbers.js';

export interface SvgOptions {
  /** Font size in points that `em` and `ex` lengths of the root refer to. */
  fontSize?: number;
  /** Most elements drawn (after `<use>` expansion) before SvgWorkLimit. */
  maxElements?: number;
  maxDepth?: number;
  /** Embedded raster images are refused past these, before they are placed. */
  imageBounds?: RendererBounds;
}

const DEFAULT_MAX_DEPTH = 64;
const DEFAULT_MAX_ELEMENTS = 50_000;
const SKIPPED = new Set([
  'defs',
  'clipPath',
  'mask',
  'pattern',
  'marker',
  'symbol',
  'linearGradient',
  'radialGradient',
  'filter',
  'style',
  'title',
  'desc',
  'metadata',
  'script',
  'foreignObject',
]);
const SHAPES = new Set(['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon']);

/** An SVG's canonical tree (canonical.ts) and what its readers look up in it. */
export interface ParsedSvg {
  document: Document;
  /** Every element, in document order. */
  elements: Element[];
  /** The first `<svg>` element. */
  root: Element;
  ids: Map<string, Element>;
}

/**
 * SVG text → its canonical tree: entity declarations refused and nesting and element counts
 * bounded before a tree is built, then namespaces resolved once so that every later reader —
 * the converter, the link checks, resvg — sees the same elements and attributes.
 */
export function parseSvg(svg: string, options: SvgOptions = {}): ParsedSvg {
  if (/<!ENTITY/i.test(svg)) throw new RendererBoundError('SvgWorkLimit', 'SVG entity declarations are refused');
  const maxElements = options.maxElements ?? DEFAULT_MAX_ELEMENTS;
  if (checkNesting(svg, options.maxDepth ?? DEFAULT_MAX_DEPTH, true) > maxElements) {
    throw new RendererBoundError('SvgWorkLimit', `SVG has more than ${maxElements} elements`);
  }
  const document = parseDocument(svg, { xmlMode: true, decodeEntities: true });
  canonicalizeSvg(document);
  const elements = elementsOf(document.children);
  const root = elements.find((element) => element.name === 'svg');
  if (!root) throw new SvgError('no <svg> element');
  return { document, elements, root, ids: idsOf(elements) };
}

/**
 * SVG → a Drawing: shapes become paths with their fill and stroke, `<use>` is expanded,
 * `<style>` rules, custom properties and color-mix() are resolved, text stays text (drawn in
 * Quire's fonts). Filters, masks and clip paths are not drawn.
 */
export function svgToDrawing(svg: string | ParsedSvg, options: SvgOptions = {}): Drawing {
  return new SvgWalker(typeof svg === 'string' ? parseSvg(svg, options) : svg, options).drawing();
}

export { SvgError } from './svg-error.js';

/** Every element in document order, found without recursion (nesting is bounded later). */
export function elementsOf(nodes: readonly ChildNode[]): Element[] {
  const out: Element[] = [];
  const stack = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type !== 'tag') continue;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

/** Elements by id; the first of a repeated id wins, as in browsers. */
export function idsOf(elements: readonly Element[]): Map<string, Element> {
  const ids = new Map<string, Element>();
  for (const element of elements) if (element.attribs.id && !ids.has(element.attribs.id)) ids.set(element.attribs.id, element);
  return ids;
}

class SvgWalker {
  private readonly items: DrawingItem[] = [];
  private readonly root: Element;
  private readonly ids: Map<string, Element>;
  private readonly sheets: SheetDeclarations;
  private readonly maxElements: number;
  private readonly maxDepth: number;
  private work = 0;

  constructor(
    { document, elements, root, ids }: ParsedSvg,
    private readonly options: SvgOptions,
  ) {
    this.maxElements = options.maxElements ?? DEFAULT_MAX_ELEMENTS;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.root = root;
    this.ids = ids;
    checkExpansion(document.children, this.ids, { maxElements: this.maxElements, maxDepth: this.maxDepth });
    const styles = elements.filter((element) => element.name === 'style').map(textOf);
    this.sheets = readStyleSheets(document, styles);
  }

  drawing(): Drawing {
    const fontSize = this.options.fontSize ?? 12;
    const attributes = this.root.attribs;
    const viewBox = numbers(attributes.viewBox);
    const styleWidth = /(?:^|;)\s*width\s*:\s*([^;]+)/.exec(attributes.style ?? '')?.[1];
    const styleHeight = /(?:^|;)\s*height\s*:\s*([^;]+)/.exec(attributes.style ?? '')?.[1];
    let widthPt = lengthInPoints(attributes.width ?? styleWidth, fontSize);
    let heightPt = lengthInPoints(attributes.height ?? styleHeight, fontSize);
    const [minX, minY, vbWidth, vbHeight] = viewBox.length === 4 ? viewBox : [0, 0, (widthPt ?? 300 * 0.75) / 0.75, (heightPt ?? 150 * 0.75) / 0.75];
    if (!(vbWidth! > 0 && vbHeight! > 0)) throw new SvgError('the SVG has no size');
    widthPt ??= heightPt !== null ? (heightPt * vbWidth!) / vbHeight! : vbWidth! * 0.75;
    heightPt ??= (widthPt * vbHeight!) / vbWidth!;
    const unit = Math.min(widthPt / vbWidth!, heightPt / vbHeight!);
    const verticalAlign = lengthInPoints(/vertical-align\s*:\s*([^;]+)/.exec(attributes.style ?? '')?.[1], fontSize) ?? 0;
    const rootStyle = cascade({ ...INITIAL_STYLE, fontSize: 16 }, declarationsOf(this.root, this.sheets));
    this.walkChildren(this.root, [1, 0, 0, 1, -minX!, -minY!], rootStyle, 0);
    const drawing = { width: vbWidth!, height: vbHeight!, unit, baseline: vbHeight! + verticalAlign / unit, items: this.items };
    checkDrawableNumbers(drawing);
    return drawing;
  }

  private walkChildren(parent: Element, matrix: Matrix, style: InheritedStyle, depth: number): void {
    for (const child of parent.children) if (child.type === 'tag') this.walk(child, matrix, style, depth + 1);
  }

  private walk(element: Element, parentMatrix: Matrix, parentStyle: InheritedStyle, depth: number): void {
    if (depth > this.maxDepth) throw new RendererBoundError('DepthLimit', `SVG nested deeper than ${this.maxDepth} levels`);
    if (++this.work > this.maxElements) throw new RendererBoundError('SvgWorkLimit', `SVG draws more than ${this.maxElements} elements`);
    const name = element.name;
    if (SKIPPED.has(name)) return;
    // Text hidden from readers repeats visible text (a badge's shadow): drawn, it would extract twice.
    if (name === 'text' && element.attribs['aria-hidden'] === 'true') return;
    const style = cascade(parentStyle, declarationsOf(element, this.sheets));
    if (!style.visible && name !== 'g') return;
    const matrix = multiply(parentMatrix, parseTransform(element.attribs.transform));
    if (SHAPES.has(name)) this.shape(element, matrix, style);
    else if (name === 'text') this.text(element, matrix, style);
    else if (name === 'use') this.use(element, matrix, style, depth);
    else if (name === 'image') this.image(element, matrix);
    else if (name === 'svg') this.nestedSvg(element, matrix, style, depth);
    else this.walkChildren(element, matrix, style, depth);
  }

  private shape(element: Element, matrix: Matrix, style: InheritedStyle): void {
    if (!style.visible) return;
    const d = shapePath(element.name, element.attribs);
    if (!d) return;
    const fill =
      element.name === 'line'
        ? null
        : withAlpha(
            paintColor(style.fill, style, (id) => this.gradient(id)),
            style.fillOpacity * style.opacity,
          );
    const strokePaint = withAlpha(
      paintColor(style.stroke, style, (id) => this.gradient(id)),
      style.strokeOpacity * style.opacity,
    );
    if (!fill && !strokePaint) return;
    this.items.push({
      kind: 'path',
      d,
      transform: matrix,
      fill: fill?.color ?? null,
      fillOpacity: fill?.opacity ?? 1,
      fillRule: style.fillRule,
      stroke:
        strokePaint && style.strokeWidth > 0
          ? {
              color: strokePaint.color,
              width: style.strokeWidth,
              opacity: strokePaint.opacity,
              cap: style.strokeCap,
              join: style.strokeJoin,
              dash: style.strokeDash,
            }
          : null,
    });
  }

  /** Text and its tspans, each run at its own position; whitespace collapses as in SVG. */
  private text(element: Element, matrix: Matrix, style: InheritedStyle): void {
    let x = numbers(element.attribs.x)[0] ?? 0;
    let y = numbers(element.attribs.y)[0] ?? 0;
    x += numbers(element.attribs.dx)[0] ?? 0;
    y += numbers(element.attribs.dy)[0] ?? 0;
    const runs: Array<{ text: string; x: number; y: number; style: InheritedStyle; positioned: boolean }> = [];
    const visit = (node: Element, nodeStyle: InheritedStyle, first: boolean) => {
      for (const child of node.children) {
        if (child.type === 'text') runs.push({ text: child.data, x, y, style: nodeStyle, positioned: first && runs.length === 0 });
        else if (child.type === 'tag' && child.name === 'tspan') {
          const tspanStyle = cascade(nodeStyle, declarationsOf(child, this.sheets));
          const tx = numbers(child.attribs.x)[0];
          const ty = numbers(child.attribs.y)[0];
          if (tx !== undefined) x = tx;
          if (ty !== undefined) y = ty;
          x += numbers(child.attribs.dx)[0] ?? 0;
          y += numbers(child.attribs.dy)[0] ?? 0;
          const before = runs.length;
          visit(child, tspanStyle, tx !== undefined || ty !== undefined);
          if (runs.length > before && (tx !== undefined || ty !== undefined)) runs[before]!.positioned = true;
        }
      }
    };
    visit(element, style, true);
    let pending: (typeof runs)[number] | null = null;
    const flush = () => {
      if (!pending) return;
      const text = pending.text.replace(/\s+/g, ' ').trim();
      const color = withAlpha(
        paintColor(pending.style.fill, pending.style, (id) => this.gradient(id)),
        pending.style.fillOpacity * pending.style.opacity,
      );
      if (text && color && pending.style.visible) {
        this.items.push({
          kind: 'text',
          text,
          x: pending.x,
          y: pending.y,
          transform: matrix,
          size: pending.style.fontSize,
          font: {
            family: pending.style.monospace ? 'mono' : 'serif',
            weight: pending.style.fontWeight >= 600 ? 'bold' : 'regular',
            italic: pending.style.fontStyle === 'italic',
          },
          color: color.color,
          anchor: pending.style.textAnchor,
        });
      }
      pending = null;
    };
    for (const run of runs) {
      if (pending && !run.positioned && run.style === pending.style) pending.text += run.text;
      else {
        flush();
        pending = { ...run };
      }
    }
    flush();
  }

  /** `<use>`: its target drawn at x, y; a symbol with a viewBox is scaled into the use's box. */
  private use(element: Element, matrix: Matrix, style: InheritedStyle, depth: number): void {
    const href = element.attribs.href ?? element.attribs['xlink:href'];
    const target = href?.startsWith('#') ? this.ids.get(href.slice(1)) : undefined;
    if (!target) return;
    const placed = multiply(matrix, [1, 0, 0, 1, Number.parseFloat(element.attribs.x ?? '0') || 0, Number.parseFloat(element.attribs.y ?? '0') || 0]);
    if (target.name !== 'symbol') {
      this.walk(target, placed, style, depth + 1);
      return;
    }
    const viewBox = numbers(target.attribs.viewBox);
    const width = Number.parseFloat(element.attribs.width ?? target.attribs.width ?? '');
    const height = Number.parseFloat(element.attribs.height ?? target.attribs.height ?? '');
    const fitted =
      viewBox.length === 4 && viewBox[2]! > 0 && viewBox[3]! > 0 && width > 0 && height > 0 ? multiply(placed, viewBoxMatrix(viewBox, width, height)) : placed;
    this.walkChildren(target, fitted, cascade(style, declarationsOf(target, this.sheets)), depth);
  }

  private nestedSvg(element: Element, matrix: Matrix, style: InheritedStyle, depth: number): void {
    const x = Number.parseFloat(element.attribs.x ?? '0') || 0;
    const y = Number.parseFloat(element.attribs.y ?? '0') || 0;
    const viewBox = numbers(element.attribs.viewBox);
    let inner = multiply(matrix, [1, 0, 0, 1, x, y]);
    const width = Number.parseFloat(element.attribs.width ?? '');
    const height = Number.parseFloat(element.attribs.height ?? '');
    if (viewBox.length === 4 && width > 0 && height > 0 && viewBox[2]! > 0 && viewBox[3]! > 0) inner = multiply(inner, viewBoxMatrix(viewBox, width, height));
    this.walkChildren(element, inner, style, depth);
  }

  private image(element: Element, matrix: Matrix): void {
    const href = element.attribs.href ?? element.attribs['xlink:href'];
    if (!href || !isDataUri(href)) return;
    let bytes: Uint8Array;
    try {
      bytes = decodeDataUri(href).bytes;
    } catch {
      return;
    }
    const info = sniffImage(bytes);
    if (!info) return;
    checkImageBounds(info, this.options.imageBounds ?? DEFAULT_BOUNDS);
    const n = (key: string, fallback: number) => Number.parseFloat(element.attribs[key] ?? '') || fallback;
    // Named by content, so equal images share one PDF object and different ones never collide.
    const id = `svg-image-${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}`;
    this.items.push({
      kind: 'image',
      image: { kind: 'raster', id, format: info.format, bytes, width: info.width, height: info.height },
      x: n('x', 0),
      y: n('y', 0),
      width: n('width', info.width),
      height: n('height', info.height),
      transform: matrix,
    });
  }

  /**
   * A gradient drawn as the average of its stops: vectors stay vectors, shading is approximate.
   * One without stops takes those of the gradient it links to, followed without recursion; a
   * chain that comes back to itself is refused, as a `<use>` that does.
   */
  private gradient(id: string): Rgba | null {
    const seen = new Set<Element>();
    for (let element = this.ids.get(id); element && /Gradient$/.test(element.name); ) {
      if (seen.has(element)) throw new RendererBoundError('DepthLimit', 'an SVG gradient inherits from itself');
      seen.add(element);
      const colors = this.stopColors(element);
      if (colors.length > 0) {
        const average = (channel: 0 | 1 | 2) => colors.reduce((sum, color) => sum + color.color[channel], 0) / colors.length;
        return {
          color: [Math.round(average(0)), Math.round(average(1)), Math.round(average(2))],
          alpha: colors.reduce((sum, color) => sum + color.alpha, 0) / colors.length,
        };
      }
      const inherited = element.attribs.href ?? element.attribs['xlink:href'];
      element = inherited?.startsWith('#') ? this.ids.get(inherited.slice(1)) : undefined;
    }
    return null;
  }

  private stopColors(gradient: Element): Rgba[] {
    const stops = gradient.children.filter((child): child is Element => child.type === 'tag' && child.name === 'stop');
    return stops
      .map((stop) => {
        const declarations = new Map(declarationsOf(stop, this.sheets));
        const color = parseColor(declarations.get('stop-color') ?? stop.attribs['stop-color'] ?? 'black');
        const opacity = Number.parseFloat(declarations.get('stop-opacity') ?? stop.attribs['stop-opacity'] ?? '1');
        return color && Number.isFinite(opacity) ? { ...color, alpha: color.alpha * Math.max(0, Math.min(1, opacity)) } : color;
      })
      .filter((color): color is Rgba => color !== null);
  }
}

/** A viewBox scaled uniformly into a width × height box (preserveAspectRatio's default, centring aside). */
function viewBoxMatrix(viewBox: number[], width: number, height: number): Matrix {
  const scale = Math.min(width / viewBox[2]!, height / viewBox[3]!);
  return [scale, 0, 0, scale, -viewBox[0]! * scale, -viewBox[1]! * scale];
}

function textOf(element: Element): string {
  return element.children
    .map((child) => (child.type === 'text' || child.type === 'cdata' ? ('data' in child ? child.data : textOf(child as unknown as Element)) : ''))
    .join('');
}
