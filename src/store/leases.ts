/**
 * Leases on work in flight and the hold times of account tokens (see Store). The numbers are
 * chosen so that a killed instance's work comes back within seconds while a live instance,
 * renewing every third of a lease, would have to miss two renewals in a row to lose one.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { TokenGrant, TokenKind } from './store.js';

export const DEFAULT_LEASE_MS = 15_000;

/** Who holds a lease, and for how long each renewal extends it. */
export interface LeaseHolder {
  /** Unique to one start of one instance: a restarted instance never renews its predecessor's leases. */
  id: string;
  leaseMs: number;
}

export function newLeaseHolder(leaseMs = DEFAULT_LEASE_MS): LeaseHolder {
  return { id: `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`, leaseMs };
}

/** How often an instance renews its leases and returns expired ones. */
export function renewalIntervalMs(holder: LeaseHolder): number {
  return Math.max(100, Math.floor(holder.leaseMs / 3));
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** How long a taken token is held: a window for counted requests, the lease for render slots. */
export function tokenHoldMs(kind: TokenKind, holder: LeaseHolder): number {
  if (kind === 'request') return MINUTE_MS;
  if (kind === 'preview') return HOUR_MS;
  return holder.leaseMs;
}

export interface HeldToken {
  slot: number;
  heldUntil: number;
}

/**
 * Which of slots 0 … limit − 1 to take, given the tokens held now (`live`, held past `now`), or
 * how long until enough are free. `spread` picks free slots at random, so that instances
 * claiming at once rarely reach for the same one.
 */
export function chooseTokens(live: HeldToken[], claim: { limit: number; count: number; now: number; holdMs: number; spread: boolean }): TokenGrant {
  const { limit, count, now, holdMs } = claim;
  if (count > limit) return { granted: false, freeInMs: holdMs };
  const held = new Set(live.map((token) => token.slot));
  const freeCount = limit - held.size;
  if (freeCount >= count) {
    const slots = claim.spread && freeCount >= limit / 2 ? randomFree(held, limit, count) : lowestFree(held, count);
    return { granted: true, slots };
  }
  const releases = live.map((token) => token.heldUntil).sort((a, b) => a - b);
  return { granted: false, freeInMs: Math.max(0, releases[count - freeCount - 1]! - now) };
}

function lowestFree(held: Set<number>, count: number): number[] {
  const slots: number[] = [];
  for (let slot = 0; slots.length < count; slot += 1) if (!held.has(slot)) slots.push(slot);
  return slots;
}

/** At least half the slots are free, so each draw finds one with even odds or better. */
function randomFree(held: Set<number>, limit: number, count: number): number[] {
  const slots = new Set<number>();
  while (slots.size < count) {
    const slot = Math.floor(Math.random() * limit);
    if (!held.has(slot)) slots.add(slot);
  }
  return [...slots];
}
