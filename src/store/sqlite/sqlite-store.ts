import type { Clock } from '../../clock.js';
import type { IncludedDocuments, PlanId } from '../../plan-terms.js';
import { hashApiKey, newApiKey, newId, newToken } from '../identifiers.js';
import { chooseTokens, newLeaseHolder, tokenHoldMs, type HeldToken, type LeaseHolder } from '../leases.js';
import { anchorAt } from '../periods.js';
import {
  documentsLeft,
  scheduledFor,
  toAccount,
  toIdempotencyRecord,
  toPeriod,
  type AccountRow,
  type IdempotencyRow,
  type KeySpendingRow,
  type PeriodRow,
} from '../rows.js';
import * as sql from '../statements.js';
import {
  DuplicateCertificateError,
  DuplicateEmailError,
  LeaseLostError,
  QuotaExhaustedError,
  UnknownRecordError,
  type Account,
  type AccountChanges,
  type CertificateSummary,
  type ClaimTicket,
  type ReservedThrough,
  type IdempotencyClaim,
  type KeySpending,
  type Period,
  type Principal,
  type Reservation,
  type Store,
  type StoredCertificate,
  type TokenGrant,
  type TokenKind,
  type Usage,
} from '../store.js';
import { selectAccount } from './accounts-table.js';
import { certificateExists, insertCertificate, removeCertificate, selectCertificate, selectCertificates } from './certificates-table.js';
import { guard, immediate, openDatabase, type Db } from './database.js';
import { addGrant, insertPeriod, openCurrentPeriod, storedCurrentPeriod } from './periods-table.js';

/** Largest id SQLite's INTEGER holds; a larger `period` cannot name a row. */
const MAX_ROW_ID = 2n ** 63n - 1n;

/**
 * The embedded store: one SQLite file, every counter changed inside BEGIN IMMEDIATE, so a read
 * and the write it decides are one step. Charges, keys and accounts are durable. Reservations,
 * returns, tokens and lease renewals are written without waiting for the disk: a power cut can
 * lose only their last moments, and then a reservation lost was never charged, one whose return
 * was lost stays under a lease that expires, and tokens only free up.
 */
export class SqliteStore implements Store {
  private constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly holder: LeaseHolder,
    private readonly included: IncludedDocuments,
  ) {}

  static open(file: string, clock: Clock, options: { included: IncludedDocuments; busyTimeoutMs?: number; holder?: LeaseHolder }): SqliteStore {
    return new SqliteStore(
      guard(() => openDatabase(file, options.busyTimeoutMs ?? 5_000)),
      clock,
      options.holder ?? newLeaseHolder(),
      options.included,
    );
  }

  async createAccount(input: { email: string; plan: PlanId; emailVerified: boolean }): Promise<Account> {
    const now = this.clock.now();
    const anchor = anchorAt(now, { startOfDay: true });
    return immediate(this.db, () => {
      if (this.db.prepare('SELECT 1 FROM accounts WHERE email = ?').get(input.email)) {
        throw new DuplicateEmailError(input.email);
      }
      const row = this.db
        .prepare(
          `INSERT INTO accounts (id, email, plan, email_verified, anchor_day, anchor_from, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        )
        .get(newId('acct'), input.email, input.plan, input.emailVerified ? 1 : 0, anchor.day, anchor.from, now) as AccountRow;
      return toAccount(row);
    });
  }

  async getAccount(accountId: string): Promise<Account> {
    return guard(() => this.account(accountId));
  }

  async updateAccount(accountId: string, changes: AccountChanges): Promise<Account> {
    const now = this.clock.now();
    return immediate(this.db, () => {
      const account = this.account(accountId);
      const overrides = { ...account.overrides, ...changes.overrides };
      this.db
        .prepare('UPDATE accounts SET blocked = ?, email_verified = ?, limit_overrides = ? WHERE id = ?')
        .run((changes.blocked ?? account.blocked) ? 1 : 0, (changes.emailVerified ?? account.emailVerified) ? 1 : 0, JSON.stringify(overrides), accountId);
      // A documents override applies to the open period at once, not only to the next one.
      if (changes.overrides?.documents !== undefined) {
        const current = storedCurrentPeriod(this.db, accountId, now);
        if (current) this.db.prepare('UPDATE periods SET included = ? WHERE id = ?').run(changes.overrides.documents, current.id);
      }
      return this.account(accountId);
    });
  }

  async changePlan(accountId: string, plan: PlanId): Promise<Account> {
    const now = this.clock.now();
    return immediate(this.db, () => {
      const account = this.account(accountId);
      if (account.plan === plan) return account;
      const current = storedCurrentPeriod(this.db, accountId, now);
      let unused: number;
      if (current) {
        unused = documentsLeft(current);
        this.db.prepare('UPDATE periods SET ends_at = ? WHERE id = ?').run(now, current.id);
      } else {
        unused = scheduledFor(account, now, this.included).included;
      }
      const anchor = anchorAt(now, { startOfDay: false });
      this.db.prepare('UPDATE accounts SET plan = ?, anchor_day = ?, anchor_from = ? WHERE id = ?').run(plan, anchor.day, anchor.from, accountId);
      const changed = this.account(accountId);
      // Re-anchored at `now`, the scheduled period starts now and ends on the next anchor day.
      const opened = insertPeriod(this.db, accountId, scheduledFor(changed, now, this.included));
      if (unused > 0) addGrant(this.db, opened.id, unused, 'carry_over', now);
      return changed;
    });
  }

  async createApiKey(accountId: string, name: string | null): Promise<{ id: string; key: string }> {
    const key = newApiKey();
    const id = newId('key');
    const now = this.clock.now();
    immediate(this.db, () => {
      this.account(accountId);
      this.db
        .prepare('INSERT INTO api_keys (id, account_id, name, key_hash, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(id, accountId, name, hashApiKey(key), now);
    });
    return { id, key };
  }

  async revokeApiKey(keyId: string): Promise<void> {
    const now = this.clock.now();
    immediate(this.db, () => {
      const found = this.db.prepare('SELECT 1 FROM api_keys WHERE id = ?').get(keyId);
      if (!found) throw new UnknownRecordError('key', keyId);
      this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, keyId);
    });
  }

  async authenticate(presentedKey: string): Promise<Principal | undefined> {
    const row = guard(
      () =>
        this.db
          .prepare(
            `SELECT k.id AS key_id, a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
             WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
          )
          .get(hashApiKey(presentedKey)) as (AccountRow & { key_id: string }) | undefined,
    );
    return row && { account: toAccount(row), keyId: row.key_id };
  }

  async grantDocuments(accountId: string, documents: number): Promise<Period> {
    const now = this.clock.now();
    return immediate(this.db, () => {
      const period = openCurrentPeriod(this.db, this.account(accountId), now, this.included);
      addGrant(this.db, period.id, documents, 'admin', now);
      return toPeriod(this.periodRow(period.id));
    });
  }

  async reserveDocument(accountId: string, keyId: string, frontEnd: ReservedThrough = 'api'): Promise<Reservation> {
    const now = this.clock.now();
    const reservation = { keyId, frontEnd, now, holder: this.holder.id, leaseUntil: now + this.holder.leaseMs };
    return immediate(
      this.db,
      () => {
        const period = openCurrentPeriod(this.db, this.account(accountId), now, this.included);
        if (documentsLeft(period) <= 0) throw new QuotaExhaustedError();
        this.db.prepare('UPDATE periods SET reserved = reserved + 1 WHERE id = ?').run(period.id);
        const { id } = this.db.prepare(sql.INSERT_RESERVATION).get({ ...reservation, periodId: period.id }) as { id: number };
        return { id: String(id), periodId: String(period.id) };
      },
      { durable: false },
    );
  }

  async chargeReservation(reservationId: string, pages: number, claim?: ClaimTicket, resources?: string): Promise<void> {
    immediate(this.db, () => {
      if (claim && this.db.prepare(sql.COMPLETE_KEY).run({ ...claim, resources: resources ?? null }).changes !== 1) {
        throw new LeaseLostError('key', reservationId);
      }
      if (!this.settle(reservationId, 'charged', null, pages)) throw new LeaseLostError('reservation', reservationId);
    });
  }

  async returnReservation(reservationId: string, code: string, pages: number | undefined, claim?: ClaimTicket): Promise<void> {
    // The key is released even when the reservation was lost: this instance would renew it otherwise.
    const settled = immediate(
      this.db,
      () => {
        if (claim) this.db.prepare(sql.RELEASE_KEY).run(claim);
        return this.settle(reservationId, 'returned', code, pages ?? null);
      },
      { durable: false },
    );
    if (!settled) throw new LeaseLostError('reservation', reservationId);
  }

  /** Call inside a write transaction. False when the reservation is not open under this instance's lease (nothing written). */
  private settle(reservationId: string, state: 'charged' | 'returned', code: string | null, pages: number | null): boolean {
    const settled = this.db.prepare(sql.SETTLE_RESERVATION).get({ state, code, pages, now: this.clock.now(), reservationId, holder: this.holder.id }) as
      | { period_id: number }
      | undefined;
    if (!settled) return false;
    this.db.prepare(sql.SETTLE_PERIOD).run({ settled: 1, used: state === 'charged' ? 1 : 0, periodId: settled.period_id });
    return true;
  }

  async usage(accountId: string, periodId?: bigint): Promise<Usage | undefined> {
    const now = this.clock.now();
    return guard(() => {
      let period: Period;
      if (periodId !== undefined) {
        if (periodId > MAX_ROW_ID) return undefined;
        const row = this.db.prepare('SELECT * FROM periods WHERE id = ? AND account_id = ?').get(periodId, accountId) as PeriodRow | undefined;
        if (!row) return undefined;
        period = toPeriod(row);
      } else {
        const stored = storedCurrentPeriod(this.db, accountId, now);
        period = stored ? toPeriod(stored) : scheduledFor(this.account(accountId), now, this.included);
      }
      return { period, keys: period.id === undefined ? [] : this.keySpending(period.id) };
    });
  }

  private keySpending(periodId: string): KeySpending[] {
    const rows = this.db.prepare(sql.KEY_SPENDING).all({ periodId }) as KeySpendingRow[];
    return rows.map((row) => ({ id: row.id, name: row.revoked_at === null ? row.name : null, credits: row.credits }));
  }

  async claimIdempotencyKey(accountId: string, key: string, fingerprint: string, lifetimeMs: number): Promise<IdempotencyClaim> {
    const now = this.clock.now();
    const ticket = { accountId, key, token: newToken() };
    const leaseUntil = now + this.holder.leaseMs;
    return immediate(this.db, () => {
      const claim = { ...ticket, fingerprint, now, expiredAt: now - lifetimeMs, holder: this.holder.id, leaseUntil };
      if (this.db.prepare(sql.CLAIM_KEY).get(claim)) return { claimed: true, ticket };
      return { claimed: false, record: toIdempotencyRecord(this.db.prepare(sql.SELECT_KEY).get(ticket) as IdempotencyRow) };
    });
  }

  async releaseIdempotencyKey(claim: ClaimTicket): Promise<void> {
    guard(() => this.db.prepare(sql.RELEASE_KEY).run(claim));
  }

  async takeReplay(accountId: string, key: string, fingerprint: string, allowance: number, lifetimeMs: number): Promise<boolean> {
    const expiredAt = this.clock.now() - lifetimeMs;
    return guard(() => this.db.prepare(sql.TAKE_REPLAY).run({ accountId, key, fingerprint, allowance, expiredAt }).changes === 1);
  }

  async giveBackReplay(accountId: string, key: string, fingerprint: string): Promise<void> {
    guard(() => this.db.prepare(sql.GIVE_BACK_REPLAY).run({ accountId, key, fingerprint }));
  }

  async takeTokens(accountId: string, kind: TokenKind, limit: number, count: number): Promise<TokenGrant> {
    const now = this.clock.now();
    const holdMs = tokenHoldMs(kind, this.holder);
    return immediate(
      this.db,
      () => {
        const live = this.db.prepare(sql.LIVE_TOKENS).all({ accountId, kind, limit, now }) as { slot: number; held_until: number }[];
        const held: HeldToken[] = live.map((token) => ({ slot: token.slot, heldUntil: token.held_until }));
        const grant = chooseTokens(held, { limit, count, now, holdMs, spread: false });
        if (grant.granted) {
          const take = this.db.prepare(sql.TAKE_TOKEN);
          for (const slot of grant.slots) take.run({ accountId, kind, slot, holder: this.holder.id, heldUntil: now + holdMs, now });
        }
        return grant;
      },
      { durable: false },
    );
  }

  async tokensHeld(accountId: string, kind: TokenKind, limit: number): Promise<number> {
    return guard(() => this.db.prepare(sql.LIVE_TOKENS).all({ accountId, kind, limit, now: this.clock.now() }).length);
  }

  async giveBackTokens(accountId: string, kind: TokenKind, slots: number[]): Promise<void> {
    immediate(
      this.db,
      () => {
        const giveBack = this.db.prepare(sql.GIVE_BACK_TOKEN);
        for (const slot of slots) giveBack.run({ accountId, kind, slot, holder: this.holder.id });
      },
      { durable: false },
    );
  }

  async addCertificate(accountId: string, certificate: Omit<StoredCertificate, 'createdAt'>): Promise<CertificateSummary> {
    const createdAt = this.clock.now();
    return immediate(this.db, () => {
      this.account(accountId);
      if (certificateExists(this.db, accountId, certificate.name)) throw new DuplicateCertificateError(certificate.name);
      return insertCertificate(this.db, accountId, { ...certificate, createdAt });
    });
  }

  async storedCertificate(accountId: string, name: string): Promise<StoredCertificate | undefined> {
    return guard(() => selectCertificate(this.db, accountId, name));
  }

  async deleteCertificate(accountId: string, name: string): Promise<void> {
    immediate(this.db, () => removeCertificate(this.db, accountId, name));
  }

  async listCertificates(accountId: string): Promise<CertificateSummary[]> {
    return guard(() => {
      this.account(accountId);
      return selectCertificates(this.db, accountId);
    });
  }

  async secret(name: 'fingerprint'): Promise<Buffer> {
    const row = guard(() => this.db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as { value: Buffer });
    return row.value;
  }

  async renewLeases(): Promise<void> {
    const now = this.clock.now();
    const renewal = { holder: this.holder.id, leaseUntil: now + this.holder.leaseMs, now };
    immediate(
      this.db,
      () => {
        for (const statement of [sql.RENEW_RESERVATIONS, sql.RENEW_KEYS, sql.RENEW_RENDER_SLOTS]) this.db.prepare(statement).run(renewal);
      },
      { durable: false },
    );
  }

  async recoverExpired(): Promise<{ released: number; returned: number }> {
    const now = this.clock.now();
    return immediate(this.db, () => {
      const released = this.db.prepare(sql.RELEASE_EXPIRED_KEYS).run({ now }).changes;
      const returned = this.db.prepare(sql.RETURN_EXPIRED_RESERVATIONS).all({ now }) as { period_id: number }[];
      const settlePeriod = this.db.prepare(sql.SETTLE_PERIOD);
      for (const [periodId, settled] of sql.returnedByPeriod(returned)) settlePeriod.run({ settled, used: 0, periodId });
      return { released, returned: returned.length };
    });
  }

  async maintain(idempotencyLifetimeMs: number): Promise<void> {
    const now = this.clock.now();
    guard(() => {
      this.db.prepare(sql.DROP_OLD_KEYS).run({ expiredAt: now - idempotencyLifetimeMs });
      this.db.prepare(sql.DROP_FREE_TOKENS).run({ now });
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    });
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    guard(() => this.db.pragma('wal_checkpoint(TRUNCATE)'));
    this.db.close();
  }

  private account(accountId: string): Account {
    return selectAccount(this.db, accountId);
  }

  private periodRow(periodId: number): PeriodRow {
    return this.db.prepare('SELECT * FROM periods WHERE id = ?').get(periodId) as PeriodRow;
  }
}
