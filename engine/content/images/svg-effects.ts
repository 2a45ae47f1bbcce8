import type { Document, Element } from 'domhandler';
import { RendererBoundError } from '../../errors.js';
import { readStyleSheets } from '../svg/style.js';

/**
 * Filters, masks and patterns cost resvg time in proportion to the pixels they cover, and
 * some primitives far more (measured on a 1000×1000 canvas: a blur ~0.2 s, turbulence ~0.14 s
 * per octave, morphology ~0.001 s × (2r+1)² for a radius of r pixels, and 100 000 octaves or a
 * 300×300 convolution never finish). So before resvg renders: filter regions fall back to
 * their defaults (the element's box), costly parameters are clamped, and the total work sets
 * how many pixels the raster may have.
 */
export interface EffectWork {
  /** Estimated work in units of about 0.1 s per million pixels. */
  units: number;
}

/** Work allowed over a full-size raster; more work gets fewer pixels. */
const UNITS_AT_FULL_SIZE = 10;
const FULL_SIZE_PIXELS = 1_000_000;
const FEWEST_PIXELS = 40_000;

/** Most pixels a raster with this much effect work may have. */
export function pixelsForWork(work: EffectWork): number {
  return Math.max(FEWEST_PIXELS, Math.min(FULL_SIZE_PIXELS, (FULL_SIZE_PIXELS * UNITS_AT_FULL_SIZE) / Math.max(work.units, 1)));
}

const MAX_OCTAVES = 4;
const MAX_CONVOLUTION_ORDER = 5;
const MAX_MORPHOLOGY_PIXELS = 8;
const REGION_ATTRIBUTES = ['x', 'y', 'width', 'height', 'filterUnits', 'primitiveUnits'];
/** Beyond this the picture is refused rather than drawn at a useless resolution. */
const MAX_UNITS = 400;

/** Tames the SVG's effects in place (`pixelsPerUnit`: canvas pixels per user unit) and estimates their work. */
export function tameEffects(document: Document, elements: readonly Element[], ids: ReadonlyMap<string, Element>, pixelsPerUnit: number): EffectWork {
  const costs = new Map<Element, number>();
  for (const element of elements) {
    if (element.name === 'filter') {
      for (const name of REGION_ATTRIBUTES) delete element.attribs[name];
      costs.set(element, filterCost(element, pixelsPerUnit));
    } else if (element.name === 'mask' || element.name === 'pattern' || element.name === 'clipPath') {
      costs.set(element, 1);
    }
  }
  const styles = elements
    .filter((element) => element.name === 'style')
    .map((element) => element.children.map((child) => ('data' in child ? child.data : '')).join(''));
  const sheets = readStyleSheets(document, styles);
  let units = 0;
  for (const element of elements) {
    const declared = [Object.values(element.attribs).join(' '), ...(sheets.get(element) ?? []).map(([, value]) => value)].join(' ');
    for (const match of declared.matchAll(/url\(\s*['"]?#([^'")\s]+)['"]?\s*\)/g)) units += costs.get(ids.get(match[1]!)!) ?? 0;
    if (/(?:^|;)\s*filter\s*:\s*[a-z-]+\(/i.test(element.attribs.style ?? '')) units += 2;
  }
  if (units > MAX_UNITS) throw new RendererBoundError('SvgWorkLimit', `SVG effects would take more than ${MAX_UNITS} passes over the picture`);
  return { units };
}

function filterCost(filter: Element, pixelsPerUnit: number): number {
  let cost = 0;
  for (const primitive of filter.children) {
    if (primitive.type !== 'tag') continue;
    for (const name of REGION_ATTRIBUTES) delete primitive.attribs[name];
    switch (primitive.name) {
      case 'feTurbulence': {
        const octaves = Math.min(MAX_OCTAVES, Math.max(1, Math.floor(Number(primitive.attribs.numOctaves ?? '1')) || 1));
        primitive.attribs.numOctaves = String(octaves);
        cost += 1.5 * octaves;
        break;
      }
      case 'feConvolveMatrix': {
        const order = Math.max(...(primitive.attribs.order ?? '3').split(/[\s,]+/).map(Number));
        if (!(order <= MAX_CONVOLUTION_ORDER)) primitive.attribs.order = '3';
        cost += 2;
        break;
      }
      case 'feMorphology': {
        const radius = Math.min(
          MAX_MORPHOLOGY_PIXELS / pixelsPerUnit,
          Math.max(
            0,
            ...(primitive.attribs.radius ?? '0')
              .split(/[\s,]+/)
              .map(Number)
              .filter(Number.isFinite),
          ),
        );
        primitive.attribs.radius = String(radius);
        cost += (2 * MAX_MORPHOLOGY_PIXELS + 1) ** 2 / 100;
        break;
      }
      default:
        cost += 2;
    }
  }
  return Math.max(cost, 1);
}
