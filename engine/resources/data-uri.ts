import { ResourceLoadError, type LoadedResource } from './loader.js';

const DATA_URI = /^data:([^,]*?),/i;

export function isDataUri(url: string): boolean {
  return /^data:/i.test(url);
}

/** Decodes an RFC 2397 `data:` URI (Base64 or percent-encoded). */
export function decodeDataUri(url: string): LoadedResource {
  const head = DATA_URI.exec(url);
  if (!head) throw new ResourceLoadError('unreadable', 'malformed data: URI');
  const params = head[1]!.split(';').map((part) => part.trim());
  const base64 = params.at(-1)?.toLowerCase() === 'base64';
  const mediaType = (base64 ? params.slice(0, -1) : params)[0]?.toLowerCase() || 'text/plain';
  const payload = url.slice(head[0].length);
  if (base64) {
    const clean = payload.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) {
      throw new ResourceLoadError('unreadable', 'data: URI holds invalid Base64');
    }
    return { bytes: new Uint8Array(Buffer.from(clean, 'base64')), mediaType };
  }
  try {
    return { bytes: new Uint8Array(Buffer.from(decodeURIComponent(payload), 'utf8')), mediaType };
  } catch {
    throw new ResourceLoadError('unreadable', 'data: URI holds invalid percent-encoding');
  }
}

/** Decoded size of a Base64 payload without decoding it. */
export function base64DecodedLength(payload: string): number {
  const clean = payload.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
