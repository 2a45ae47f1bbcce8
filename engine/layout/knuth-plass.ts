/**
 * Knuth–Plass optimal line breaking ("Breaking Paragraphs into Lines", 1981): choose the
 * breaks of a whole paragraph at once so that the sum of the lines' demerits is least.
 */

export type KpNode =
  | { type: 'box'; width: number }
  | { type: 'glue'; width: number; stretch: number; shrink: number }
  | { type: 'penalty'; width: number; penalty: number; flagged: boolean };

export const INFINITE_PENALTY = 10_000;

export interface KpSettings {
  lineWidth: number;
  /** Largest adjustment ratio accepted; TeX's default tolerance 200 corresponds to about 2.6. */
  tolerance: number;
  /**
   * Stretch added to every line without stretching its spaces: set for ragged-right text, so
   * lines are balanced (a short line costs demerits) but word spaces keep their width.
   */
  raggedStretch: number;
  /**
   * Last resort: when nothing fits, let a line run past the measure rather than fail (TeX's
   * overfull box). Only content wider than the measure with no break inside needs it.
   */
  allowOverfull?: boolean;
}

/** The paper's line penalty: every extra line costs this, squared into demerits. */
const LINE_PENALTY = 10;
/** Two hyphenated lines in a row (the paper's α). */
const FLAGGED_DEMERITS = 3000;
/** Adjacent lines of very different tightness (the paper's γ). */
const FITNESS_DEMERITS = 100;
/** Widths are sums of floats: a line this close to the measure fits exactly. */
export const FIT_EPSILON = 1e-3;
/** An overfull line is the worst outcome short of failing. */
const OVERFULL_DEMERITS = 1e12;
/** Very tight, tight-to-normal, loose, very loose (the paper's four classes). */
const FITNESS_CLASSES = 4;

interface Active {
  position: number;
  line: number;
  fitness: number;
  width: number;
  stretch: number;
  shrink: number;
  demerits: number;
  ratio: number;
  previous: Active | null;
}

export interface KpBreak {
  /** Index of the node where the line ends (a glue or penalty, or the final penalty). */
  position: number;
  /** Adjustment ratio of the line that ends here: >0 stretched, <0 shrunk. */
  ratio: number;
}

/**
 * Returns the chosen breaks in order (the last is the paragraph's final forced break), or null
 * when no set of breaks keeps every line within the tolerance.
 */
export function breakLines(nodes: readonly KpNode[], settings: KpSettings): KpBreak[] | null {
  const sums = prefixSums(nodes);
  let active: Active[] = [{ position: 0, line: 0, fitness: 1, width: 0, stretch: 0, shrink: 0, demerits: 0, ratio: 0, previous: null }];
  // Reused at every breakpoint (a paragraph has thousands): the best new break per fitness
  // class, kept as numbers until the breakpoint is done (most candidates are beaten), and the
  // array the next active list is built in.
  const bestDemerits = new Float64Array(FITNESS_CLASSES);
  const bestRatio = new Float64Array(FITNESS_CLASSES);
  const bestPrevious = new Array<Active | null>(FITNESS_CLASSES).fill(null);
  let survivors: Active[] = [];

  for (let b = 0; b < nodes.length; b++) {
    const node = nodes[b]!;
    const legal = (node.type === 'glue' && b > 0 && nodes[b - 1]!.type === 'box') || (node.type === 'penalty' && node.penalty < INFINITE_PENALTY);
    if (!legal) continue;
    const penalty = node.type === 'penalty' ? node.penalty : 0;
    const forced = penalty <= -INFINITE_PENALTY;
    const flagged = node.type === 'penalty' && node.flagged;
    bestPrevious.fill(null);
    survivors.length = 0;
    let overfull: Active | undefined;

    for (let k = 0; k < active.length; k++) {
      const a = active[k]!;
      let length = sums.width[b]! - a.width;
      if (node.type === 'penalty') length += node.width;
      let ratio: number;
      if (length < settings.lineWidth - FIT_EPSILON) {
        const stretch = sums.stretch[b]! - a.stretch + settings.raggedStretch;
        ratio = stretch > 0 ? (settings.lineWidth - length) / stretch : Number.POSITIVE_INFINITY;
      } else if (length > settings.lineWidth + FIT_EPSILON) {
        const shrink = sums.shrink[b]! - a.shrink;
        ratio = shrink > 0 ? (settings.lineWidth - length) / shrink : Number.NEGATIVE_INFINITY;
      } else {
        ratio = 0;
      }
      if (ratio >= -1 && !forced) survivors.push(a);
      if (ratio < -1 && (!overfull || a.demerits < overfull.demerits)) overfull = a;
      if (ratio < -1 || ratio > settings.tolerance) continue;

      const badness = 100 * Math.abs(ratio) ** 3;
      let demerits = (LINE_PENALTY + badness) ** 2;
      if (penalty >= 0) demerits += penalty ** 2;
      else if (!forced) demerits -= penalty ** 2;
      const previousNode = nodes[a.position];
      if (flagged && a.position > 0 && previousNode?.type === 'penalty' && previousNode.flagged) demerits += FLAGGED_DEMERITS;
      const fitness = ratio < -0.5 ? 0 : ratio <= 0.5 ? 1 : ratio <= 1 ? 2 : 3;
      if (Math.abs(fitness - a.fitness) > 1) demerits += FITNESS_DEMERITS;
      const total = a.demerits + demerits;
      if (bestPrevious[fitness] === null || total < bestDemerits[fitness]!) {
        bestPrevious[fitness] = a;
        bestDemerits[fitness] = total;
        bestRatio[fitness] = ratio;
      }
    }

    const previous = active;
    active = survivors;
    survivors = previous;
    let found = bestPrevious.some(Boolean);
    if (settings.allowOverfull && active.length === 0 && !found && overfull !== undefined) {
      bestPrevious[0] = overfull;
      bestDemerits[0] = overfull.demerits + OVERFULL_DEMERITS;
      bestRatio[0] = -1;
      found = true;
    }
    if (found) {
      const start = lineStartAfter(nodes, b);
      for (let fitness = 0; fitness < FITNESS_CLASSES; fitness++) {
        const from = bestPrevious[fitness];
        if (!from) continue;
        active.push({
          position: b,
          line: from.line + 1,
          fitness,
          width: sums.width[start]!,
          stretch: sums.stretch[start]!,
          shrink: sums.shrink[start]!,
          demerits: bestDemerits[fitness]!,
          ratio: bestRatio[fitness]!,
          previous: from,
        });
      }
    }
    if (active.length === 0) return null;
  }

  const last = nodes.length - 1;
  let chosen: Active | null = null;
  for (const a of active) {
    if (a.position === last && (!chosen || a.demerits < chosen.demerits)) chosen = a;
  }
  if (!chosen) return null;
  const breaks: KpBreak[] = [];
  for (let a: Active | null = chosen; a && a.previous; a = a.previous) breaks.push({ position: a.position, ratio: a.ratio });
  return breaks.reverse();
}

interface Sums {
  width: Float64Array;
  stretch: Float64Array;
  shrink: Float64Array;
}

/** Sums of widths, stretch and shrink of all nodes before each index. */
function prefixSums(nodes: readonly KpNode[]): Sums {
  const n = nodes.length;
  const sums: Sums = { width: new Float64Array(n + 1), stretch: new Float64Array(n + 1), shrink: new Float64Array(n + 1) };
  for (let i = 0; i < n; i++) {
    const node = nodes[i]!;
    sums.width[i + 1] = sums.width[i]! + (node.type === 'penalty' ? 0 : node.width);
    sums.stretch[i + 1] = sums.stretch[i]! + (node.type === 'glue' ? node.stretch : 0);
    sums.shrink[i + 1] = sums.shrink[i]! + (node.type === 'glue' ? node.shrink : 0);
  }
  return sums;
}

/** Where a line after break `b` starts counting from: glue and penalties at a break vanish. */
function lineStartAfter(nodes: readonly KpNode[], b: number): number {
  let i = b;
  while (i < nodes.length) {
    const node = nodes[i]!;
    if (node.type === 'box') break;
    if (node.type === 'penalty' && node.penalty <= -INFINITE_PENALTY && i > b) break;
    i++;
  }
  return i;
}
