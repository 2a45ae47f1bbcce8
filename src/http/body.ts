/**
 * The request-body ceiling (SPEC "Measurement rules" 2): a declared length over it is refused
 * before a byte is read; a body without one is counted as it streams and cut off at the ceiling,
 * so an oversized body is never buffered.
 */
import { KIB } from '../limits/plans.js';
import { bodyTooLarge } from '../service-error.js';

export function checkDeclaredLength(request: Request, maxBytes: number): void {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw bodyTooLarge(Math.floor(maxBytes / KIB));
}

export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw bodyTooLarge(Math.floor(maxBytes / KIB));
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
