/**
 * Everything the service keeps: accounts, hashed API keys, plans, usage periods, document
 * reservations, grants, idempotency records, per-key spending and the per-account counters that
 * several instances must share (requests per minute, concurrent renders, editor previews).
 * Two implementations: SQLite, the embedded default, and PostgreSQL, for several instances.
 *
 * Work in flight is held under a lease of the instance that started it (`holder`): open
 * reservations, keys in progress and render slots. A live instance renews its leases
 * (renewLeases); any instance returns what an expired lease held (recoverExpired), so a killed
 * instance's work comes back within seconds and no instance ever returns a live sibling's.
 */
import type { LimitOverrides, PlanId } from '../plan-terms.js';

export interface Account {
  id: string;
  email: string;
  plan: PlanId;
  blocked: boolean;
  emailVerified: boolean;
  overrides: LimitOverrides;
  createdAt: number;
  /** Scheduled periods start on this day of the month (clamped to short months) at 00:00 UTC… */
  anchorDay: number;
  /** …from this instant on (sign-up day, or the last plan change). */
  anchorFrom: number;
}

/** Who is calling: the account and the API key it used. */
export interface Principal {
  account: Account;
  keyId: string;
}

export interface Period {
  /** Undefined while the period is only scheduled: reading usage never opens one. */
  id: string | undefined;
  plan: PlanId;
  startsAt: number;
  endsAt: number;
  included: number;
  granted: number;
  /** Documents charged (delivered). */
  used: number;
}

export interface KeySpending {
  id: string;
  /** Null once the key is revoked. */
  name: string | null;
  credits: number;
}

export interface Usage {
  period: Period;
  keys: KeySpending[];
}

/**
 * Which door a document was reserved through: `api` (the HTTP API and MCP, spent by the key) or
 * `editor` (the web editor's download: the account's documents, no key's spending).
 */
export type ReservedThrough = 'api' | 'editor';

export interface Reservation {
  id: string;
  periodId: string;
}

export interface IdempotencyRecord {
  state: 'in_progress' | 'completed';
  fingerprint: string;
  /** Digest of the resource content the completed render loaded (null before completion). */
  resources: string | null;
  replays: number;
  createdAt: number;
}

/** Proof of a claim: only the request that claimed a key can complete or release it. */
export interface ClaimTicket {
  accountId: string;
  key: string;
  token: string;
}

export type IdempotencyClaim = { claimed: true; ticket: ClaimTicket } | { claimed: false; record: IdempotencyRecord };

/** A certificate stored in an account under a name, for seals (the credential itself is encrypted by src/seal). */
export interface StoredCertificate {
  name: string;
  /** The credential as added, encrypted at rest; opaque to the store. */
  sealed: Buffer;
  /** `rsa`, `ecdsa-p256`, `ecdsa-p384` or `ed25519`. */
  keyType: string;
  /** When the signing certificate expires, milliseconds since the epoch. */
  notAfter: number;
  createdAt: number;
}

export type CertificateSummary = Omit<StoredCertificate, 'sealed'>;

/**
 * Per-account counters kept as numbered tokens (slots 0 to limit − 1), each held until an
 * instant: `request` for requests per minute (held a minute: a sliding window), `render` for
 * concurrent renders (held under the instance's lease until given back), `preview` for editor
 * previews per hour (held an hour).
 */
export type TokenKind = 'request' | 'render' | 'preview';

export type TokenGrant =
  /** The slots taken, to give back (render slots). */
  | { granted: true; slots: number[] }
  /** None taken: the earliest the asked number could be free, in milliseconds from now. */
  | { granted: false; freeInMs: number };

export interface AccountChanges {
  blocked?: boolean;
  emailVerified?: boolean;
  /** Merged into the account's overrides. */
  overrides?: LimitOverrides;
}

export interface Store {
  createAccount(input: { email: string; plan: PlanId; emailVerified: boolean }): Promise<Account>;
  getAccount(accountId: string): Promise<Account>;
  updateAccount(accountId: string, changes: AccountChanges): Promise<Account>;
  /** Closes the current period now and opens one on `plan`, its unused documents carried over as a grant. */
  changePlan(accountId: string, plan: PlanId): Promise<Account>;

  /** The key is returned once; only its hash is kept. */
  createApiKey(accountId: string, name: string | null): Promise<{ id: string; key: string }>;
  revokeApiKey(keyId: string): Promise<void>;
  /** The principal behind a presented key, or undefined for an unknown or revoked one. */
  authenticate(presentedKey: string): Promise<Principal | undefined>;

  /** Adds documents to the current period, opening it if needed. */
  grantDocuments(accountId: string, documents: number): Promise<Period>;
  /**
   * Reserves one document in the current period (opening it); throws QuotaExhaustedError when
   * none is left. `frontEnd` (default `api`) decides whether the key's spending counts it.
   */
  reserveDocument(accountId: string, keyId: string, frontEnd?: ReservedThrough): Promise<Reservation>;
  /**
   * Charges a delivered document; in the same transaction the claimed key, if any, becomes
   * completed, remembering the digest of the resource content the render loaded. Both leases
   * are fencing tokens: the reservation must still be open under this instance's lease and the
   * key still hold this claim's token, or nothing is written and LeaseLostError is thrown.
   */
  chargeReservation(reservationId: string, pages: number, claim?: ClaimTicket, resources?: string): Promise<void>;
  /**
   * Gives a reserved document back to its period, recording why and the page count when known;
   * in the same transaction the claimed key, if any, is released (unless another claim took it
   * over). Throws LeaseLostError when the reservation is no longer open under this instance's lease.
   */
  returnReservation(reservationId: string, code: string, pages: number | undefined, claim?: ClaimTicket): Promise<void>;
  /** The period open now (scheduled if none is open yet), or the account's period `periodId`; undefined if not the account's. */
  usage(accountId: string, periodId?: bigint): Promise<Usage | undefined>;

  /** One atomic statement: creates the record (in progress) unless a live one exists, which is returned instead. */
  claimIdempotencyKey(accountId: string, key: string, fingerprint: string, lifetimeMs: number): Promise<IdempotencyClaim>;
  /** Releases a claim that never reserved a document (refused before rendering). */
  releaseIdempotencyKey(claim: ClaimTicket): Promise<void>;
  /** Counts one replay if the live, completed record matches `fingerprint` and has replays left. */
  takeReplay(accountId: string, key: string, fingerprint: string, allowance: number, lifetimeMs: number): Promise<boolean>;
  giveBackReplay(accountId: string, key: string, fingerprint: string): Promise<void>;

  /** Throws DuplicateCertificateError when the account already has a certificate of that name. */
  addCertificate(accountId: string, certificate: Omit<StoredCertificate, 'createdAt'>): Promise<CertificateSummary>;
  /** The account's own certificate of that name; never another account's. */
  storedCertificate(accountId: string, name: string): Promise<StoredCertificate | undefined>;
  /** Throws UnknownRecordError when there is none. */
  deleteCertificate(accountId: string, name: string): Promise<void>;
  listCertificates(accountId: string): Promise<CertificateSummary[]>;

  /**
   * Takes `count` of the account's `limit` tokens of a kind together, or none (one atomic
   * claim). Asking more than `limit` at once never succeeds: `freeInMs` is then the kind's
   * whole hold time.
   */
  takeTokens(accountId: string, kind: TokenKind, limit: number, count: number): Promise<TokenGrant>;
  /** How many of the account's `limit` tokens of a kind are held now (the editor shows previews left). */
  tokensHeld(accountId: string, kind: TokenKind, limit: number): Promise<number>;
  /** Gives back tokens this instance took (render slots when the render ends). */
  giveBackTokens(accountId: string, kind: TokenKind, slots: number[]): Promise<void>;

  /** A random secret created with the database (e.g. the idempotency fingerprint key). */
  secret(name: 'fingerprint'): Promise<Buffer>;
  /** Extends every lease this instance holds (its open reservations, keys in progress and render slots). */
  renewLeases(): Promise<void>;
  /**
   * Returns reservations and releases keys in progress whose lease has expired — work of an
   * instance that stopped without settling it. Never touches a live lease.
   */
  recoverExpired(): Promise<{ released: number; returned: number }>;
  /** Periodic upkeep that keeps storage bounded: drops idempotency records past their lifetime. */
  maintain(idempotencyLifetimeMs: number): Promise<void>;
  close(): Promise<void>;
}

/** The store could not be read or written (busy, disk, corruption): counted as "usage count unavailable". */
export class StoreUnavailableError extends Error {}

/**
 * A write that needed this instance's lease found it gone: the instance stalled past its lease
 * (paused, starved, cut off) and another one returned the reservation or released the key, and
 * perhaps charged the same key since. Nothing was written; the late work must be refused, never
 * charged, and there is nothing of it left to give back.
 */
export class LeaseLostError extends Error {
  constructor(
    /** Which lease was lost: the reservation (settled by another instance) or the key (released, maybe claimed again). */
    readonly lease: 'reservation' | 'key',
    readonly id: string,
  ) {
    super(
      lease === 'reservation'
        ? `reservation ${id} is no longer open under this instance's lease`
        : `the idempotency key of reservation ${id} is no longer held by this claim`,
    );
  }
}

export class QuotaExhaustedError extends Error {
  constructor() {
    super('no documents left in the current period');
  }
}

/** An administrative lookup that found nothing (an unknown account or key). */
export class UnknownRecordError extends Error {
  constructor(
    readonly kind: 'account' | 'key' | 'certificate',
    readonly id: string,
  ) {
    super(`unknown ${kind} "${id}"`);
  }
}

export class DuplicateCertificateError extends Error {
  constructor(readonly certificateName: string) {
    super(`the account already has a certificate named "${certificateName}"; delete it first`);
  }
}

export class DuplicateEmailError extends Error {
  constructor(readonly email: string) {
    super(`an account with the email "${email}" exists`);
  }
}
