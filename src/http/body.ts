/**
 * Request bodies read within a ceiling (docs/api.md "Limits"): a declared length over it is
 * refused before a byte is read; a body without one is counted as it streams and cut off at the
 * ceiling, so an oversized body is never buffered. The deployment's ceiling is checked before
 * anything else; the account's own, once the key is known, as the body is read.
 */
import { bodyLimit, type BodyCeiling } from '../limits/body-ceiling.js';
import { bodyTooLarge } from '../service-error.js';

export function checkDeclaredLength(request: Request, ceiling: BodyCeiling): void {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > ceiling.bytes) throw bodyTooLarge(bodyLimit(ceiling));
}

export async function readBody(request: Request, ceiling: BodyCeiling): Promise<Uint8Array> {
  checkDeclaredLength(request, ceiling);
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > ceiling.bytes) throw bodyTooLarge(bodyLimit(ceiling));
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
