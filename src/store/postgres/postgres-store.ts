/**
 * The shared store: one PostgreSQL database for any number of service instances. Claims are
 * single statements deciding under a row lock (statements.ts); the rare steps that read before
 * they write — opening a period, changing a plan, tokens when a quick claim lost a race — hold
 * the account's row lock or an advisory lock for the whole step.
 *
 * Charges, keys and accounts are committed durably. Reserving and returning a document and
 * renewing leases are not waited on the disk for: a server crash can lose only their last
 * moments, and then a reservation lost was never charged, and one whose return was lost stays
 * under a lease that expires.
 */
import type pg from 'pg';
import type { Clock } from '../../clock.js';
import type { IncludedDocuments, PlanId } from '../../plan-terms.js';
import { hashApiKey, newApiKey, newId, newToken } from '../identifiers.js';
import { chooseTokens, newLeaseHolder, tokenHoldMs, type LeaseHolder } from '../leases.js';
import { anchorAt } from '../periods.js';
import {
  CERTIFICATE_SUMMARY_COLUMNS,
  documentsLeft,
  periodValues,
  scheduledFor,
  toAccount,
  toCertificateSummary,
  toIdempotencyRecord,
  toPeriod,
  toStoredCertificate,
  type AccountRow,
  type CertificateRow,
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
  type Period,
  type Principal,
  type Reservation,
  type Store,
  type StoredCertificate,
  type TokenGrant,
  type TokenKind,
  type Usage,
} from '../store.js';
import { migrate, one, openPool, query, transaction, type PoolSettings, type Queryable } from './connection.js';

/** Reserves a document in the stored current period, if it has one left: one statement. */
const RESERVE = `
  WITH period AS (
    UPDATE periods SET reserved = reserved + 1
    WHERE id = (SELECT id FROM periods WHERE account_id = @accountId AND starts_at <= @now AND ends_at > @now
                ORDER BY starts_at DESC, id DESC LIMIT 1)
      AND included + granted - used - reserved > 0
    RETURNING id)
  INSERT INTO reservations (period_id, key_id, front_end, state, created_at, holder, lease_until)
  SELECT id, @keyId, @frontEnd, 'reserved', @now, @holder, @leaseUntil FROM period
  RETURNING id, period_id`;

const LOCK_ACCOUNT = 'SELECT * FROM accounts WHERE id = @accountId FOR UPDATE';

/** Largest BIGINT; a larger `period` cannot name a row. */
const MAX_ROW_ID = 2n ** 63n - 1n;

export class PostgresStore implements Store {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    private readonly holder: LeaseHolder,
    private readonly included: IncludedDocuments,
  ) {}

  /** Connects and brings the schema up to date (several instances may do this at once). */
  static async open(
    settings: PoolSettings,
    clock: Clock,
    options: { included: IncludedDocuments; holder?: LeaseHolder; onIdleError?: (error: Error) => void },
  ): Promise<PostgresStore> {
    const pool = openPool(settings, options.onIdleError ?? (() => {}));
    try {
      await migrate(pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresStore(pool, clock, options.holder ?? newLeaseHolder(), options.included);
  }

  async createAccount(input: { email: string; plan: PlanId; emailVerified: boolean }): Promise<Account> {
    const now = this.clock.now();
    const anchor = anchorAt(now, { startOfDay: true });
    const row = await one<AccountRow>(
      this.pool,
      `INSERT INTO accounts (id, email, plan, email_verified, anchor_day, anchor_from, created_at)
       VALUES (@id, @email, @plan, @verified, @day, @from, @now)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING *`,
      { id: newId('acct'), email: input.email, plan: input.plan, verified: input.emailVerified, day: anchor.day, from: anchor.from, now },
    );
    if (!row) throw new DuplicateEmailError(input.email);
    return toAccount(row);
  }

  async getAccount(accountId: string): Promise<Account> {
    return this.account(this.pool, accountId);
  }

  async updateAccount(accountId: string, changes: AccountChanges): Promise<Account> {
    const now = this.clock.now();
    return transaction(this.pool, async (client) => {
      const row = await one<AccountRow>(
        client,
        `UPDATE accounts SET blocked = COALESCE(@blocked, blocked), email_verified = COALESCE(@verified, email_verified),
           limit_overrides = limit_overrides || @overrides::jsonb
         WHERE id = @accountId RETURNING *`,
        { accountId, blocked: changes.blocked, verified: changes.emailVerified, overrides: JSON.stringify(changes.overrides ?? {}) },
      );
      if (!row) throw new UnknownRecordError('account', accountId);
      // A documents override applies to the open period at once, not only to the next one.
      if (changes.overrides?.documents !== undefined) {
        const current = await one<PeriodRow>(client, sql.CURRENT_PERIOD, { accountId, now });
        if (current) await query(client, 'UPDATE periods SET included = @included WHERE id = @id', { included: changes.overrides.documents, id: current.id });
      }
      return toAccount(row);
    });
  }

  async changePlan(accountId: string, plan: PlanId): Promise<Account> {
    const now = this.clock.now();
    return transaction(this.pool, async (client) => {
      const account = await this.account(client, accountId, { lock: true });
      if (account.plan === plan) return account;
      const current = await one<PeriodRow>(client, sql.CURRENT_PERIOD, { accountId, now });
      let unused: number;
      if (current) {
        unused = documentsLeft(current);
        await query(client, 'UPDATE periods SET ends_at = @now WHERE id = @id', { now, id: current.id });
      } else {
        unused = scheduledFor(account, now, this.included).included;
      }
      const anchor = anchorAt(now, { startOfDay: false });
      const changed = toAccount(
        (await one<AccountRow>(client, 'UPDATE accounts SET plan = @plan, anchor_day = @day, anchor_from = @from WHERE id = @accountId RETURNING *', {
          plan,
          day: anchor.day,
          from: anchor.from,
          accountId,
        }))!,
      );
      // Re-anchored at `now`, the scheduled period starts now and ends on the next anchor day.
      const opened = (await one<PeriodRow>(client, sql.INSERT_PERIOD, periodValues(accountId, scheduledFor(changed, now, this.included))))!;
      if (unused > 0) await this.addGrant(client, opened.id, unused, 'carry_over', now);
      return changed;
    });
  }

  async createApiKey(accountId: string, name: string | null): Promise<{ id: string; key: string }> {
    const key = newApiKey();
    const id = newId('key');
    const inserted = await one(
      this.pool,
      `INSERT INTO api_keys (id, account_id, name, key_hash, created_at)
       SELECT @id, id, @name, @hash, @now FROM accounts WHERE id = @accountId RETURNING id`,
      { id, accountId, name, hash: hashApiKey(key), now: this.clock.now() },
    );
    if (!inserted) throw new UnknownRecordError('account', accountId);
    return { id, key };
  }

  async revokeApiKey(keyId: string): Promise<void> {
    const found = await one(this.pool, 'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, @now) WHERE id = @keyId RETURNING id', {
      keyId,
      now: this.clock.now(),
    });
    if (!found) throw new UnknownRecordError('key', keyId);
  }

  async authenticate(presentedKey: string): Promise<Principal | undefined> {
    const row = await one<AccountRow & { key_id: string }>(
      this.pool,
      `SELECT k.id AS key_id, a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = @hash AND k.revoked_at IS NULL`,
      { hash: hashApiKey(presentedKey) },
    );
    return row && { account: toAccount(row), keyId: row.key_id };
  }

  async grantDocuments(accountId: string, documents: number): Promise<Period> {
    const now = this.clock.now();
    return transaction(this.pool, async (client) => {
      const period = await this.openCurrentPeriod(client, accountId, now);
      await this.addGrant(client, period.id, documents, 'admin', now);
      return toPeriod((await one<PeriodRow>(client, 'SELECT * FROM periods WHERE id = @id', { id: period.id }))!);
    });
  }

  async reserveDocument(accountId: string, keyId: string, frontEnd: ReservedThrough = 'api'): Promise<Reservation> {
    const now = this.clock.now();
    const values = { accountId, keyId, frontEnd, now, holder: this.holder.id, leaseUntil: now + this.holder.leaseMs };
    const reserve = () => transaction(this.pool, (client) => one<{ id: number; period_id: number }>(client, RESERVE, values), { durable: false });
    let reserved = await reserve();
    if (!reserved) {
      // No document left, or no period opened yet for this span (perhaps being opened by another
      // request right now): make sure it is open, under the account's lock, and try once more.
      await transaction(this.pool, (client) => this.openCurrentPeriod(client, accountId, now));
      reserved = await reserve();
    }
    if (!reserved) throw new QuotaExhaustedError();
    return { id: String(reserved.id), periodId: String(reserved.period_id) };
  }

  async chargeReservation(reservationId: string, pages: number, claim?: ClaimTicket, resources?: string): Promise<void> {
    await transaction(this.pool, async (client) => {
      // The key before the reservation, in the order recoverExpired takes their locks: the two
      // transactions meeting on one stalled render wait for each other instead of deadlocking.
      if (claim && (await query(client, sql.COMPLETE_KEY, { ...claim, resources: resources ?? null })).rowCount !== 1) {
        throw new LeaseLostError('key', reservationId);
      }
      if (!(await this.settle(client, reservationId, 'charged', null, pages))) throw new LeaseLostError('reservation', reservationId);
    });
  }

  async returnReservation(reservationId: string, code: string, pages: number | undefined, claim?: ClaimTicket): Promise<void> {
    // The key is released even when the reservation was lost: this instance would renew it otherwise.
    const settled = await transaction(
      this.pool,
      async (client) => {
        if (claim) await query(client, sql.RELEASE_KEY, claim);
        return this.settle(client, reservationId, 'returned', code, pages ?? null);
      },
      { durable: false },
    );
    if (!settled) throw new LeaseLostError('reservation', reservationId);
  }

  /** False when the reservation is not open under this instance's lease (nothing written). */
  private async settle(
    client: pg.PoolClient,
    reservationId: string,
    state: 'charged' | 'returned',
    code: string | null,
    pages: number | null,
  ): Promise<boolean> {
    const settled = /^\d{1,18}$/.test(reservationId)
      ? await one<{ period_id: number }>(client, sql.SETTLE_RESERVATION, { state, code, pages, now: this.clock.now(), reservationId, holder: this.holder.id })
      : undefined;
    if (!settled) return false;
    await query(client, sql.SETTLE_PERIOD, { settled: 1, used: state === 'charged' ? 1 : 0, periodId: settled.period_id });
    return true;
  }

  async usage(accountId: string, periodId?: bigint): Promise<Usage | undefined> {
    const now = this.clock.now();
    let period: Period;
    if (periodId !== undefined) {
      if (periodId > MAX_ROW_ID) return undefined;
      const row = await one<PeriodRow>(this.pool, 'SELECT * FROM periods WHERE id = @id AND account_id = @accountId', { id: periodId.toString(), accountId });
      if (!row) return undefined;
      period = toPeriod(row);
    } else {
      const stored = await one<PeriodRow>(this.pool, sql.CURRENT_PERIOD, { accountId, now });
      period = stored ? toPeriod(stored) : scheduledFor(await this.account(this.pool, accountId), now, this.included);
    }
    if (period.id === undefined) return { period, keys: [] };
    const rows = (await query<KeySpendingRow>(this.pool, sql.KEY_SPENDING, { periodId: period.id })).rows;
    return { period, keys: rows.map((row) => ({ id: row.id, name: row.revoked_at === null ? row.name : null, credits: row.credits })) };
  }

  async claimIdempotencyKey(accountId: string, key: string, fingerprint: string, lifetimeMs: number): Promise<IdempotencyClaim> {
    const now = this.clock.now();
    const ticket = { accountId, key, token: newToken() };
    const claim = { ...ticket, fingerprint, now, expiredAt: now - lifetimeMs, holder: this.holder.id, leaseUntil: now + this.holder.leaseMs };
    // A refused claim reads the record that won; it may be gone again by then (released), so try anew.
    for (;;) {
      if (await one(this.pool, sql.CLAIM_KEY, claim)) return { claimed: true, ticket };
      const record = await one<IdempotencyRow>(this.pool, sql.SELECT_KEY, ticket);
      if (record) return { claimed: false, record: toIdempotencyRecord(record) };
    }
  }

  async releaseIdempotencyKey(claim: ClaimTicket): Promise<void> {
    await query(this.pool, sql.RELEASE_KEY, claim);
  }

  async takeReplay(accountId: string, key: string, fingerprint: string, allowance: number, lifetimeMs: number): Promise<boolean> {
    const expiredAt = this.clock.now() - lifetimeMs;
    return (await query(this.pool, sql.TAKE_REPLAY, { accountId, key, fingerprint, allowance, expiredAt })).rowCount === 1;
  }

  async giveBackReplay(accountId: string, key: string, fingerprint: string): Promise<void> {
    await query(this.pool, sql.GIVE_BACK_REPLAY, { accountId, key, fingerprint });
  }

  /**
   * One token is first claimed blind: a slot picked at random, taken if it is free (one statement;
   * most slots are free most of the time). Then free slots chosen from those held now, at random
   * so that instances claiming at once rarely meet; and if another claim took one first, the exact
   * way: under the account's advisory lock for this kind, read and claim again. The ON CONFLICT
   * guard keeps a slot to one holder whichever way it is taken.
   */
  async takeTokens(accountId: string, kind: TokenKind, limit: number, count: number): Promise<TokenGrant> {
    if (count === 1 && limit >= 1) {
      const slot = Math.floor(Math.random() * limit);
      if (await this.takeToken(this.pool, accountId, kind, slot, this.clock.now())) return { granted: true, slots: [slot] };
    }
    const quick = await this.tryTokens(this.pool, accountId, kind, limit, count, true);
    if (quick) return quick;
    return transaction(this.pool, async (client) => {
      await query(client, 'SELECT pg_advisory_xact_lock(hashtextextended(@lock, 0))', { lock: `tokens/${accountId}/${kind}` });
      // Claims that take no lock (the blind and quick ones above) may still take a chosen slot
      // first: read and choose again. Each such loss is a slot fewer, so this ends within `limit`
      // rounds, with a grant or with the refusal the slots held then call for.
      for (let round = 0; round <= limit; round++) {
        const grant = await this.tryTokens(client, accountId, kind, limit, count, false);
        if (grant) return grant;
      }
      return { granted: false, freeInMs: 1_000 };
    });
  }

  /** The grant, or undefined when another claim took a chosen slot first (what this one took is given back). */
  private async tryTokens(on: Queryable, accountId: string, kind: TokenKind, limit: number, count: number, spread: boolean): Promise<TokenGrant | undefined> {
    const now = this.clock.now();
    const holdMs = tokenHoldMs(kind, this.holder);
    const live = (await query<{ slot: number; held_until: number }>(on, sql.LIVE_TOKENS, { accountId, kind, limit, now })).rows;
    const grant = chooseTokens(
      live.map((token) => ({ slot: token.slot, heldUntil: token.held_until })),
      { limit, count, now, holdMs, spread },
    );
    if (!grant.granted) return grant;
    const taken: number[] = [];
    for (const slot of grant.slots) {
      if (!(await this.takeToken(on, accountId, kind, slot, now))) {
        // Through `on`: inside the locked transaction, another connection would wait on these rows.
        await this.giveBack(on, accountId, kind, taken);
        return undefined;
      }
      taken.push(slot);
    }
    return grant;
  }

  private async takeToken(on: Queryable, accountId: string, kind: TokenKind, slot: number, now: number): Promise<boolean> {
    const heldUntil = now + tokenHoldMs(kind, this.holder);
    return (await one(on, sql.TAKE_TOKEN, { accountId, kind, slot, holder: this.holder.id, heldUntil, now })) !== undefined;
  }

  async tokensHeld(accountId: string, kind: TokenKind, limit: number): Promise<number> {
    return (await query(this.pool, sql.LIVE_TOKENS, { accountId, kind, limit, now: this.clock.now() })).rows.length;
  }

  async giveBackTokens(accountId: string, kind: TokenKind, slots: number[]): Promise<void> {
    await this.giveBack(this.pool, accountId, kind, slots);
  }

  private async giveBack(on: Queryable, accountId: string, kind: TokenKind, slots: number[]): Promise<void> {
    // One slot at a time, as SQLite does: a render gives back one, a lost race a few.
    for (const slot of slots) await query(on, sql.GIVE_BACK_TOKEN, { accountId, kind, slot, holder: this.holder.id });
  }

  async addCertificate(accountId: string, certificate: Omit<StoredCertificate, 'createdAt'>): Promise<CertificateSummary> {
    await this.account(this.pool, accountId);
    const row = await one<Omit<CertificateRow, 'sealed'>>(
      this.pool,
      `INSERT INTO certificates (account_id, name, sealed, key_type, not_after, created_at)
       VALUES (@accountId, @name, @sealed, @keyType, @notAfter, @now)
       ON CONFLICT (account_id, name) DO NOTHING RETURNING ${CERTIFICATE_SUMMARY_COLUMNS}`,
      { accountId, ...certificate, now: this.clock.now() },
    );
    if (!row) throw new DuplicateCertificateError(certificate.name);
    return toCertificateSummary(row);
  }

  async storedCertificate(accountId: string, name: string): Promise<StoredCertificate | undefined> {
    const row = await one<CertificateRow>(this.pool, 'SELECT * FROM certificates WHERE account_id = @accountId AND name = @name', { accountId, name });
    return row && toStoredCertificate(row);
  }

  async deleteCertificate(accountId: string, name: string): Promise<void> {
    const { rowCount } = await query(this.pool, 'DELETE FROM certificates WHERE account_id = @accountId AND name = @name', { accountId, name });
    if (rowCount === 0) throw new UnknownRecordError('certificate', name);
  }

  async listCertificates(accountId: string): Promise<CertificateSummary[]> {
    await this.account(this.pool, accountId);
    const { rows } = await query<Omit<CertificateRow, 'sealed'>>(
      this.pool,
      `SELECT ${CERTIFICATE_SUMMARY_COLUMNS} FROM certificates WHERE account_id = @accountId ORDER BY name`,
      { accountId },
    );
    return rows.map(toCertificateSummary);
  }

  async secret(name: 'fingerprint'): Promise<Buffer> {
    return (await one<{ value: Buffer }>(this.pool, 'SELECT value FROM settings WHERE name = @name', { name }))!.value;
  }

  async renewLeases(): Promise<void> {
    const now = this.clock.now();
    const renewal = { holder: this.holder.id, leaseUntil: now + this.holder.leaseMs, now };
    await transaction(
      this.pool,
      async (client) => {
        for (const statement of [sql.RENEW_RESERVATIONS, sql.RENEW_KEYS, sql.RENEW_RENDER_SLOTS]) await query(client, statement, renewal);
      },
      { durable: false },
    );
  }

  async recoverExpired(): Promise<{ released: number; returned: number }> {
    const now = this.clock.now();
    return transaction(this.pool, async (client) => {
      const released = (await query(client, sql.RELEASE_EXPIRED_KEYS, { now })).rowCount ?? 0;
      const returned = (await query<{ period_id: number }>(client, sql.RETURN_EXPIRED_RESERVATIONS, { now })).rows;
      for (const [periodId, settled] of sql.returnedByPeriod(returned)) await query(client, sql.SETTLE_PERIOD, { settled, used: 0, periodId });
      return { released, returned: returned.length };
    });
  }

  async maintain(idempotencyLifetimeMs: number): Promise<void> {
    const now = this.clock.now();
    await query(this.pool, sql.DROP_OLD_KEYS, { expiredAt: now - idempotencyLifetimeMs });
    await query(this.pool, sql.DROP_FREE_TOKENS, { now });
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }

  private async account(on: Queryable, accountId: string, options: { lock?: boolean } = {}): Promise<Account> {
    const row = await one<AccountRow>(on, options.lock ? LOCK_ACCOUNT : 'SELECT * FROM accounts WHERE id = @accountId', { accountId });
    if (!row) throw new UnknownRecordError('account', accountId);
    return toAccount(row);
  }

  /** The current period, opened if it is only scheduled; the account's row lock makes the check and the insert one step. */
  private async openCurrentPeriod(client: pg.PoolClient, accountId: string, now: number): Promise<PeriodRow> {
    const account = await this.account(client, accountId, { lock: true });
    const stored = await one<PeriodRow>(client, sql.CURRENT_PERIOD, { accountId, now });
    return stored ?? (await one<PeriodRow>(client, sql.INSERT_PERIOD, periodValues(accountId, scheduledFor(account, now, this.included))))!;
  }

  private async addGrant(client: pg.PoolClient, periodId: number, documents: number, reason: 'admin' | 'carry_over', now: number): Promise<void> {
    await query(client, sql.ADD_GRANT, { documents, periodId });
    await query(client, sql.RECORD_GRANT, { periodId, documents, reason, now });
  }
}
