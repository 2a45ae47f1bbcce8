import type { ClaimTicket, IdempotencyClaim, IdempotencyRecord } from '../store.js';
import type { Db } from './database.js';

/**
 * Claims a key (call inside a write transaction). The claim itself is one statement — insert,
 * or take over a record past its lifetime — and a refused claim reads the record that won.
 */
export function claimKey(
  db: Db,
  claim: ClaimTicket & { fingerprint: string; now: number; expiredAt: number },
): IdempotencyClaim {
  const claimed = db
    .prepare(
      `INSERT INTO idempotency_keys (account_id, idem_key, token, state, fingerprint, replays, created_at)
       VALUES (@accountId, @key, @token, 'in_progress', @fingerprint, 0, @now)
       ON CONFLICT (account_id, idem_key) DO UPDATE SET
         token = excluded.token, state = 'in_progress', fingerprint = excluded.fingerprint,
         resources = NULL, replays = 0, created_at = excluded.created_at
       WHERE idempotency_keys.created_at <= @expiredAt
       RETURNING token`,
    )
    .get(claim);
  const { accountId, key, token } = claim;
  if (claimed) return { claimed: true, ticket: { accountId, key, token } };
  const row = db
    .prepare('SELECT state, fingerprint, resources, replays, created_at FROM idempotency_keys WHERE account_id = ? AND idem_key = ?')
    .get(accountId, key) as { state: IdempotencyRecord['state']; fingerprint: string; resources: string | null; replays: number; created_at: number };
  return {
    claimed: false,
    record: { state: row.state, fingerprint: row.fingerprint, resources: row.resources, replays: row.replays, createdAt: row.created_at },
  };
}

export function completeKey(db: Db, claim: ClaimTicket, resources: string | null): void {
  db.prepare(`UPDATE idempotency_keys SET state = 'completed', resources = ? WHERE account_id = ? AND idem_key = ? AND token = ?`).run(
    resources,
    claim.accountId,
    claim.key,
    claim.token,
  );
}

export function releaseKey(db: Db, claim: ClaimTicket): void {
  db.prepare(`DELETE FROM idempotency_keys WHERE account_id = ? AND idem_key = ? AND token = ? AND state = 'in_progress'`).run(
    claim.accountId,
    claim.key,
    claim.token,
  );
}

/** One statement: counts a replay only while the record is live, completed, matching and under the allowance. */
export function takeReplay(db: Db, scope: { accountId: string; key: string; fingerprint: string; allowance: number; expiredAt: number }): boolean {
  const { changes } = db
    .prepare(
      `UPDATE idempotency_keys SET replays = replays + 1
       WHERE account_id = @accountId AND idem_key = @key AND state = 'completed' AND fingerprint = @fingerprint
         AND replays < @allowance AND created_at > @expiredAt`,
    )
    .run(scope);
  return changes === 1;
}

export function giveBackReplay(db: Db, scope: { accountId: string; key: string; fingerprint: string }): void {
  db.prepare(
    `UPDATE idempotency_keys SET replays = replays - 1
     WHERE account_id = @accountId AND idem_key = @key AND state = 'completed' AND fingerprint = @fingerprint AND replays > 0`,
  ).run(scope);
}
