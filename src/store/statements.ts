/**
 * SQL both databases run as written, with named parameters (`@name`: better-sqlite3 binds them
 * directly; the PostgreSQL store numbers them). Each claim is one statement that decides under
 * the row's lock — ON CONFLICT … WHERE, UPDATE … WHERE … RETURNING — never a read then a write.
 */

/** Insert, or take over a record past its lifetime or left in progress under an expired lease. */
export const CLAIM_KEY = `
  INSERT INTO idempotency_keys (account_id, idem_key, token, state, fingerprint, replays, created_at, holder, lease_until)
  VALUES (@accountId, @key, @token, 'in_progress', @fingerprint, 0, @now, @holder, @leaseUntil)
  ON CONFLICT (account_id, idem_key) DO UPDATE SET
    token = excluded.token, state = 'in_progress', fingerprint = excluded.fingerprint, resources = NULL,
    replays = 0, created_at = excluded.created_at, holder = excluded.holder, lease_until = excluded.lease_until
  WHERE idempotency_keys.created_at <= @expiredAt
     OR (idempotency_keys.state = 'in_progress' AND COALESCE(idempotency_keys.lease_until, 0) <= @now)
  RETURNING token`;

export const SELECT_KEY = `
  SELECT state, fingerprint, resources, replays, created_at FROM idempotency_keys
  WHERE account_id = @accountId AND idem_key = @key`;

/** Completes the key only while this claim holds it: a key released or claimed again since is left alone (fencing). */
export const COMPLETE_KEY = `
  UPDATE idempotency_keys SET state = 'completed', resources = @resources, holder = NULL, lease_until = NULL
  WHERE account_id = @accountId AND idem_key = @key AND token = @token AND state = 'in_progress'`;

export const RELEASE_KEY = `
  DELETE FROM idempotency_keys
  WHERE account_id = @accountId AND idem_key = @key AND token = @token AND state = 'in_progress'`;

/** Counts a replay only while the record is live, completed, matching and under the allowance. */
export const TAKE_REPLAY = `
  UPDATE idempotency_keys SET replays = replays + 1
  WHERE account_id = @accountId AND idem_key = @key AND state = 'completed' AND fingerprint = @fingerprint
    AND replays < @allowance AND created_at > @expiredAt`;

export const GIVE_BACK_REPLAY = `
  UPDATE idempotency_keys SET replays = replays - 1
  WHERE account_id = @accountId AND idem_key = @key AND state = 'completed' AND fingerprint = @fingerprint AND replays > 0`;

export const DROP_OLD_KEYS = `DELETE FROM idempotency_keys WHERE created_at <= @expiredAt`;

export const CURRENT_PERIOD = `
  SELECT * FROM periods WHERE account_id = @accountId AND starts_at <= @now AND ends_at > @now
  ORDER BY starts_at DESC, id DESC LIMIT 1`;

export const INSERT_PERIOD = `
  INSERT INTO periods (account_id, plan, starts_at, ends_at, included, granted)
  VALUES (@accountId, @plan, @startsAt, @endsAt, @included, @granted) RETURNING *`;

export const ADD_GRANT = `UPDATE periods SET granted = granted + @documents WHERE id = @periodId`;

export const RECORD_GRANT = `
  INSERT INTO grants (period_id, documents, reason, created_at) VALUES (@periodId, @documents, @reason, @now)`;

export const INSERT_RESERVATION = `
  INSERT INTO reservations (period_id, key_id, front_end, state, created_at, holder, lease_until)
  VALUES (@periodId, @keyId, @frontEnd, 'reserved', @now, @holder, @leaseUntil) RETURNING id`;

/**
 * Settles a reservation (charged or returned) still open under this instance's lease, and names
 * its period. An instance that stalled past its lease finds none: another returned it (fencing).
 */
export const SETTLE_RESERVATION = `
  UPDATE reservations SET state = @state, error_code = @code, pages = @pages, settled_at = @now, holder = NULL, lease_until = NULL
  WHERE id = @reservationId AND state = 'reserved' AND holder = @holder RETURNING period_id`;

export const SETTLE_PERIOD = `UPDATE periods SET reserved = reserved - @settled, used = used + @used WHERE id = @periodId`;

/** Spending through API keys only: the editor's downloads are the period's `used` less these. */
export const KEY_SPENDING = `
  SELECT k.id, k.name, k.revoked_at, SUM(CASE WHEN r.state = 'charged' THEN 1 ELSE 0 END) AS credits
  FROM reservations r JOIN api_keys k ON k.id = r.key_id
  WHERE r.period_id = @periodId AND r.front_end = 'api' GROUP BY k.id ORDER BY MIN(r.id)`;

/** Returns every reservation whose lease has expired (null: taken before leases existed). */
export const RETURN_EXPIRED_RESERVATIONS = `
  UPDATE reservations SET state = 'returned', error_code = 'interrupted', settled_at = @now, holder = NULL, lease_until = NULL
  WHERE state = 'reserved' AND COALESCE(lease_until, 0) <= @now RETURNING period_id`;

/** How many reservations RETURN_EXPIRED_RESERVATIONS returned in each period: what SETTLE_PERIOD takes off. */
export function returnedByPeriod(rows: { period_id: number }[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const { period_id: periodId } of rows) counts.set(periodId, (counts.get(periodId) ?? 0) + 1);
  return counts;
}

export const RELEASE_EXPIRED_KEYS = `
  DELETE FROM idempotency_keys WHERE state = 'in_progress' AND COALESCE(lease_until, 0) <= @now`;

export const RENEW_RESERVATIONS = `
  UPDATE reservations SET lease_until = @leaseUntil WHERE state = 'reserved' AND holder = @holder`;

export const RENEW_KEYS = `
  UPDATE idempotency_keys SET lease_until = @leaseUntil WHERE state = 'in_progress' AND holder = @holder`;

/** Render slots still held (a given-back slot is held until 0 and stays given back). */
export const RENEW_RENDER_SLOTS = `
  UPDATE account_tokens SET held_until = @leaseUntil WHERE holder = @holder AND kind = 'render' AND held_until > @now`;

export const LIVE_TOKENS = `
  SELECT slot, held_until FROM account_tokens
  WHERE account_id = @accountId AND kind = @kind AND slot < @limit AND held_until > @now`;

/** Takes a token unless someone holds it now: the check is made again under the row's lock. */
export const TAKE_TOKEN = `
  INSERT INTO account_tokens (account_id, kind, slot, holder, held_until) VALUES (@accountId, @kind, @slot, @holder, @heldUntil)
  ON CONFLICT (account_id, kind, slot) DO UPDATE SET holder = excluded.holder, held_until = excluded.held_until
  WHERE account_tokens.held_until <= @now
  RETURNING slot`;

export const GIVE_BACK_TOKEN = `
  UPDATE account_tokens SET held_until = 0
  WHERE account_id = @accountId AND kind = @kind AND slot = @slot AND holder = @holder`;

/** Tokens free now keep their row only to be taken again; maintenance drops them. */
export const DROP_FREE_TOKENS = `DELETE FROM account_tokens WHERE held_until <= @now`;
