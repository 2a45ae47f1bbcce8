import { drawingWeight } from '../../drawing/drawing.js';
import type { ContentResult } from '../result.js';

/** Formulas kept per process, and the path data they may hold together (characters). */
const MAX_ENTRIES = 2_000;
const MAX_WEIGHT = 24_000_000;

/**
 * Typeset formulas by key (TeX, display or inline, theme), least recently used first out. The
 * drawings are shared between renders and never changed after they are made.
 */
export class FormulaCache {
  private readonly entries = new Map<string, { result: ContentResult; weight: number }>();
  private weight = 0;

  get(key: string): ContentResult | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.result;
  }

  set(key: string, result: ContentResult): void {
    const weight = weightOf(result);
    if (weight > MAX_WEIGHT / 8) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.weight -= previous.weight;
    }
    this.entries.set(key, { result, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.weight <= MAX_WEIGHT) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }
}

function weightOf(result: ContentResult): number {
  return result.ok ? drawingWeight(result.drawing) : result.reason.length;
}
