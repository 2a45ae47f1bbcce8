/**
 * node:crypto's hashes, the module loaded on first use: a render with no image and no
 * RenderCache hashes nothing, and loading the module was a few milliseconds of every cold start.
 */
import type { Hash } from 'node:crypto';
import { createRequire } from 'node:module';

let crypto: typeof import('node:crypto') | undefined;

export function createHash(algorithm: 'sha1' | 'sha256'): Hash {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto.createHash(algorithm);
}

/** The SHA-256 digest of nothing, in hex. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
