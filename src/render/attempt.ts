/**
 * The cost side of one render (docs/api.md "Order of checks and what they cost"): the reserved document and the
 * claimed Idempotency-Key, settled together exactly once — charged and completed on delivery,
 * or returned and released on any failure.
 */
import type { Log } from '../log.js';
import { LeaseLostError, StoreUnavailableError, type ReservedThrough, type Reservation, type Store } from '../store/store.js';
import type { KeyClaim } from './idempotency.js';

/** Waits between tries to settle a failed attempt while the store cannot be written. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;

export class Attempt {
  private reservation: Reservation | undefined;
  private settled = false;

  constructor(
    private readonly store: Store,
    private readonly claim: KeyClaim | undefined,
    private readonly log: Log,
  ) {}

  get isReplay(): boolean {
    return this.claim?.kind === 'replay';
  }

  /** Reserves a document, unless this is a replay, which costs nothing. */
  async reserve(accountId: string, keyId: string, frontEnd: ReservedThrough): Promise<void> {
    if (this.isReplay) return;
    this.reservation = await this.store.reserveDocument(accountId, keyId, frontEnd);
  }

  /**
   * A replay must have seen the same resource content as the render it repeats (docs/api.md: "same
   * key, different document or resource content"); remote resources can only be compared once
   * loaded again.
   */
  sameResources(digest: string): boolean {
    const claim = this.claim;
    return claim?.kind !== 'replay' || claim.resources === null || claim.resources === digest;
  }

  /**
   * Recorded before the PDF is delivered. Throws LeaseLostError when this instance stalled past
   * its lease and another took the work over: the PDF must then be withheld. The attempt is
   * settled here, so a later fail() does nothing.
   */
  async succeed(pages: number, resources: string): Promise<void> {
    if (this.reservation) {
      const ticket = this.claim?.kind === 'first' ? this.claim.ticket : undefined;
      try {
        await this.store.chargeReservation(this.reservation.id, pages, ticket, resources);
      } catch (error) {
        if (error instanceof LeaseLostError) await this.leaseLost(error, pages);
        throw error;
      }
    }
    this.settled = true;
  }

  /**
   * Whatever is still this instance's is given back at once: a reservation whose key alone was
   * taken over is still open under this instance's lease, which it would go on renewing.
   */
  private async leaseLost(error: LeaseLostError, pages: number): Promise<void> {
    this.settled = true;
    this.log({ event: 'charge_refused', lease: error.lease, reservation: this.reservation?.id });
    await this.giveBack('quota_unavailable', pages, RETRY_FIRST_MS);
  }

  /**
   * Returns the document with the refusal's code (and page count when known) and frees the key.
   * Never throws. While the store cannot be written (busy, full) it tries again in the
   * background, so the document and the key come back once the store recovers, without a
   * restart; a restart returns them too (recoverInterrupted).
   */
  async fail(code: string, pages?: number): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.giveBack(code, pages, RETRY_FIRST_MS);
  }

  private async giveBack(code: string, pages: number | undefined, retryMs: number): Promise<void> {
    const claim = this.claim;
    const ticket = claim?.kind === 'first' ? claim.ticket : undefined;
    try {
      if (this.reservation) await this.store.returnReservation(this.reservation.id, code, pages, ticket);
      else if (ticket) await this.store.releaseIdempotencyKey(ticket);
      else if (claim?.kind === 'replay') await claim.giveBack();
    } catch (error) {
      if (error instanceof LeaseLostError) {
        // Another instance returned it after this one's lease expired: nothing left to give back.
        this.log({ event: 'lease_lost', lease: error.lease, reservation: this.reservation?.id, code });
        return;
      }
      const retry = error instanceof StoreUnavailableError;
      this.log({ event: 'settle_failed', code, retry, error: error instanceof Error ? error.message : String(error) });
      if (retry) setTimeout(() => void this.giveBack(code, pages, Math.min(2 * retryMs, RETRY_MAX_MS)), retryMs).unref();
    }
  }
}
