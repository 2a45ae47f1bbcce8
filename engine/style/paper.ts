import { parseLength } from './lengths.js';

/** A sheet's size in points, upright. */
export interface PaperSize {
  width: number;
  height: number;
}

const MM = 72 / 25.4;

export const NAMED_PAPERS: Readonly<Record<string, PaperSize>> = {
  a4: { width: 210 * MM, height: 297 * MM },
  a5: { width: 148 * MM, height: 210 * MM },
  letter: { width: 8.5 * 72, height: 11 * 72 },
  legal: { width: 8.5 * 72, height: 14 * 72 },
};

/** PDF viewers accept pages from 3 pt to 14,400 pt; below an inch nothing readable fits. */
const SMALLEST_SIDE = 72;
const LARGEST_SIDE = 14_400;

/** `a4`, `letter`, … or `[width, height]` with units (`[150mm, 200mm]`); null when it is neither. */
export function parsePaper(value: unknown): PaperSize | null {
  if (typeof value === 'string') {
    const named = NAMED_PAPERS[value.trim().toLowerCase()];
    if (named) return named;
    // `150mm x 200mm` or `[150mm, 200mm]` written as text (as `--set` gives it).
    const parts = value.replace(/^\s*\[|\]\s*$/g, '').split(/\s*[,x×]\s*/);
    return parts.length === 2 ? parsePaper(parts) : null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [width, height] = value.map(parseLength);
  if (width == null || height == null) return null;
  const fits = (side: number) => side >= SMALLEST_SIDE && side <= LARGEST_SIDE;
  return fits(width) && fits(height) ? { width, height } : null;
}

/** The sheet as the document is set on it: the paper as given, turned when the orientation is landscape. */
export function sheetSize(design: { paper: PaperSize; orientation: 'portrait' | 'landscape' }): PaperSize {
  const { width, height } = design.paper;
  return design.orientation === 'landscape' ? { width: Math.max(width, height), height: Math.min(width, height) } : design.paper;
}
