import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { ResourceLoadError } from '../../resources/loader.js';

interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

type WebpDecode = (bytes: ArrayBuffer) => Promise<Pixels>;

let decoder: Promise<WebpDecode> | null = null;

/** libwebp as WebAssembly, compiled from the package's own file the first time it is needed. */
function loadDecoder(): Promise<WebpDecode> {
  decoder ??= (async () => {
    const codec = (await import('@jsquash/webp/decode.js')) as unknown as { default: WebpDecode; init(module: WebAssembly.Module): Promise<void> };
    const wasm = createRequire(import.meta.url).resolve('@jsquash/webp/codec/dec/webp_dec.wasm');
    await codec.init(await WebAssembly.compile(readFileSync(wasm)));
    return codec.default;
  })();
  return decoder;
}

/** A WebP image (still, or an animation's first frame as libwebp gives it) as PNG bytes. */
export async function webpToPng(bytes: Uint8Array): Promise<Uint8Array> {
  const decode = await loadDecoder();
  let pixels: Pixels;
  try {
    pixels = await decode(bytes.slice().buffer);
  } catch {
    throw new ResourceLoadError('unreadable', 'unreadable WebP image');
  }
  const png = new PNG({ width: pixels.width, height: pixels.height });
  png.data = Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength);
  return PNG.sync.write(png, { colorType: opaque(pixels.data) ? 2 : 6 });
}

/** Opaque images are written without alpha: smaller, and PDF needs no soft mask for them. */
function opaque(rgba: Uint8ClampedArray): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}
