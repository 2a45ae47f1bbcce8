import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { FONTS_DIR } from '../../text/font-catalog.js';

type ResvgModule = typeof import('@resvg/resvg-js');

let loading: Promise<ResvgModule> | null = null;

/** resvg is native code: loaded the first time a document needs it, then kept. */
export function loadResvg(): Promise<ResvgModule> {
  loading ??= import('@resvg/resvg-js');
  return loading;
}

/**
 * resvg's options: never the system's fonts; Quire's bundled ones when the SVG has text, so
 * text in a raster matches the page (loading them costs time, so only then).
 */
export function resvgOptions(fitTo: NonNullable<ResvgRenderOptions['fitTo']>, withFonts: boolean): ResvgRenderOptions {
  const font: ResvgRenderOptions['font'] = withFonts
    ? {
        loadSystemFonts: false,
        fontDirs: [FONTS_DIR],
        defaultFontFamily: 'Source Serif 4',
        serifFamily: 'Source Serif 4',
        sansSerifFamily: 'DejaVu Sans',
        monospaceFamily: 'JetBrains Mono',
      }
    : { loadSystemFonts: false };
  return { fitTo, font, logLevel: 'off' };
}
