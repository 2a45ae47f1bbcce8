import type { ImageHeader } from './header.js';
import { loadResvg, resvgOptions } from './resvg.js';

/**
 * A GIF's first frame as PNG bytes (PDF cannot hold GIF). resvg decodes GIF inside an SVG
 * `<image>`, drawn at the image's own size; the header was bounded before this is called.
 */
export async function gifToPng(bytes: Uint8Array, header: ImageHeader): Promise<Uint8Array> {
  const { Resvg } = await loadResvg();
  const href = `data:image/gif;base64,${Buffer.from(bytes).toString('base64')}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${header.width}" height="${header.height}"><image width="${header.width}" height="${header.height}" href="${href}"/></svg>`;
  return new Resvg(svg, resvgOptions({ mode: 'original' }, false)).render().asPng();
}
