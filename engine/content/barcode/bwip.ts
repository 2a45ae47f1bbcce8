import type { BarcodeRequest } from './syntax.js';

type BwipJs = typeof import('bwip-js');

let library: Promise<BwipJs> | null = null;

/** bwip-js is imported on first use (about 50 ms) and kept for the process. */
const load = (): Promise<BwipJs> => (library ??= import('bwip-js'));

/**
 * The symbol drawn by bwip-js as SVG at scale 1 (one unit is a point: a linear module is 1 unit,
 * a 2-D module 2): bars and modules as paths, the human-readable digits as outlines. Invalid
 * data throws bwip-js's error. `barHeight` is in the millimetres bwip-js takes, at that scale.
 */
export async function symbolSvg(request: BarcodeRequest, barHeight: number | null): Promise<string> {
  const bwip = await load();
  const { symbology } = request;
  return bwip.toSVG({
    bcid: symbology.bcid,
    text: request.data,
    scale: 1,
    ...(symbology.linear ? { includetext: true, textxalign: 'center' as const } : {}),
    ...(barHeight !== null ? { height: barHeight } : {}),
    ...(request.ecc !== null ? { eclevel: request.ecc } : {}),
  });
}

/** bwip-js's complaint without its internal code: `bwipp.ean13badCheckDigit#6915: Incorrect …` → `Incorrect …`. */
export function bwipReason(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
  return message.replace(/^bwipp\.\w+(?:#\d+)?:\s*/, '') || 'the data cannot be encoded';
}
