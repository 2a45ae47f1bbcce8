import { IDENTITY, multiply } from '../../drawing/matrix.js';
import type { Drawing } from '../../drawing/drawing.js';
import { svgToDrawing } from '../svg/parse-svg.js';
import { symbolSvg } from './bwip.js';
import type { BarcodeRequest } from './syntax.js';

const MM_PER_POINT = 25.4 / 72;
const WHITE = [255, 255, 255] as const;

/**
 * The symbol as vectors on a white plate as large as its quiet zone, black on white in either
 * theme (scanners need the contrast), `width` wide when asked and with bars `height` tall.
 */
export async function drawSymbol(request: BarcodeRequest): Promise<Drawing> {
  let symbol = svgToDrawing(await symbolSvg(request, null));
  const unit = request.width !== null ? request.width / symbol.width : 1;
  if (request.height !== null) symbol = svgToDrawing(await symbolSvg(request, (request.height / unit) * MM_PER_POINT));
  const [quietX, quietY] = request.symbology.quiet;
  const width = symbol.width + 2 * quietX;
  const height = symbol.height + 2 * quietY;
  return {
    width,
    height,
    unit,
    baseline: height,
    items: [
      { kind: 'path', d: `M0 0H${width}V${height}H0Z`, transform: IDENTITY, fill: WHITE, fillOpacity: 1, fillRule: 'nonzero', stroke: null },
      ...symbol.items.map((item) => ({ ...item, transform: multiply([1, 0, 0, 1, quietX, quietY], item.transform) })),
    ],
  };
}
