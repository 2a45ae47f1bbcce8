import { createHash, randomBytes } from 'node:crypto';

/** Public identifiers: a prefix saying what it names, then random hex. */
export function newId(prefix: 'acct' | 'key'): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/** A new API key: 256 random bits, shown once. */
export function newApiKey(): string {
  return `quire_${randomBytes(32).toString('base64url')}`;
}

/**
 * Keys are stored as their SHA-256. A slow password hash buys nothing here: the keys are
 * random 256-bit values, not guessable passwords, and every request must look one up.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A claim token, so that only the request that claimed an idempotency key can settle it. */
export function newToken(): string {
  return randomBytes(12).toString('base64url');
}
