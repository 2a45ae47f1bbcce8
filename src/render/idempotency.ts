/**
 * Idempotency keys (docs/api.md "Idempotent retries"): the header's rules, the
 * request fingerprint, and the decision between a first attempt, a replay and a refusal.
 */
import { createHmac } from 'node:crypto';
import type { Clock } from '../clock.js';
import { z } from 'zod';
import { idempotencyInProgress, idempotencyMismatch, replayLimit } from '../service-error.js';
import type { ClaimTicket, Store } from '../store/store.js';
import type { RenderRequest } from './render-request.js';
import { validated } from './schema-refusal.js';

export const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 128;
const KEY_RULE = `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters without control characters.`;

/** The Idempotency-Key header's value (docs/api.md "The request"). */
export const IDEMPOTENCY_KEY_SCHEMA = z
  .string()
  .min(1, { error: KEY_RULE })
  .max(MAX_KEY_LENGTH, { error: KEY_RULE })
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { error: KEY_RULE })
  .describe('Makes retries safe: a completed render under the key is replayed at no charge for 24 hours. Scoped to the account.');

/** The header's value, undefined when absent; 1–128 characters without control characters. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return validated(IDEMPOTENCY_KEY_SCHEMA, header, 'invalid_idempotency_key');
}

/**
 * What makes two requests "the same document": the Markdown (embedded resources included),
 * the resolved features, the language and the resource mode — keyed with a secret so the stored
 * value reveals nothing about the document. Delivery (output, filename, upload URL) and seal
 * credentials are left out.
 */
export function fingerprint(secret: Buffer, request: RenderRequest): string {
  const features = Object.entries(request.features).sort(([a], [b]) => a.localeCompare(b));
  const facts = JSON.stringify([features, request.language ?? null, request.resources]);
  return createHmac('sha256', secret).update(facts).update('\n').update(request.markdown).digest('hex');
}

export type KeyClaim =
  /** The first attempt under this key; the ticket settles it with the document. */
  | { kind: 'first'; ticket: ClaimTicket }
  /** A replay, already counted against the allowance; `resources` is what the first render loaded. */
  | { kind: 'replay'; resources: string | null; giveBack(): Promise<void> };

export async function claimKey(
  store: Store,
  clock: Clock,
  scope: { accountId: string; key: string; fingerprint: string; replayAllowance: number },
): Promise<KeyClaim> {
  const { accountId, key, fingerprint: print } = scope;
  const claim = await store.claimIdempotencyKey(accountId, key, print, IDEMPOTENCY_LIFETIME_MS);
  if (claim.claimed) return { kind: 'first', ticket: claim.ticket };
  const { record } = claim;
  if (record.state === 'in_progress') throw idempotencyInProgress();
  if (record.fingerprint !== print) throw idempotencyMismatch();
  if (await store.takeReplay(accountId, key, print, scope.replayAllowance, IDEMPOTENCY_LIFETIME_MS)) {
    return { kind: 'replay', resources: record.resources, giveBack: () => store.giveBackReplay(accountId, key, print) };
  }
  const expiresAt = record.createdAt + IDEMPOTENCY_LIFETIME_MS;
  throw replayLimit(Math.max(1, Math.ceil((expiresAt - clock.now()) / 1000)));
}
