/**
 * A render whose instance stalled past its lease, finishing after another instance took its
 * work over: its charge is refused (503 `quota_unavailable`, the PDF withheld, nothing
 * counted), never answered 500, and what is still its own is given back at once. The other
 * instance is a second store on the same SQLite file with its own lease holder; the clock is
 * moved by hand past the lease.
 */
import { includedDocuments } from '../../../src/limits/plans.js';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_LEASE_MS } from '../../../src/store/leases.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { createAccount, errorBody, render, reservations, startService, usage, type TestService } from '../../support/service-harness.js';

describe('a render finishing after its lease was lost', () => {
  let service: TestService;
  let sibling: SqliteStore;
  let gates = 0;

  before(async () => {
    service = await startService({ standIn: true });
    sibling = SqliteStore.open(service.dbFile, service.clock, { included: includedDocuments });
  });
  after(async () => {
    await sibling.close();
    await service.close();
  });

  /** A render under `idempotencyKey` that waits until `open()`, started once its document is reserved. */
  async function stalled(key: string, accountId: string, idempotencyKey: string) {
    const gate = path.join(service.dir, `gate-${(gates += 1)}`);
    const response = render(service, key, `gate:${gate}\n# Late`, { 'Idempotency-Key': idempotencyKey });
    while (reservations(service, accountId).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    return { response, open: () => writeFileSync(gate, '') };
  }

  async function creditsUsed(key: string): Promise<number> {
    return ((await (await usage(service, key)).json()) as { credits_used: number }).credits_used;
  }

  it('should answer 503 quota_unavailable when another instance returned the reservation and charged the key since', async () => {
    const account = await createAccount(service.store, { plan: 'pro' });
    const late = await stalled(account.key, account.id, 'order-1');
    service.clock.advance(DEFAULT_LEASE_MS);
    assert.deepEqual(await sibling.recoverExpired(), { released: 1, returned: 1 });
    // The retry under the same key, served and charged by the other instance.
    const retry = await sibling.claimIdempotencyKey(account.id, 'order-1', 'print', 86_400_000);
    assert.ok(retry.claimed);
    await sibling.chargeReservation((await sibling.reserveDocument(account.id, account.keyId)).id, 1, retry.ticket, 'digest');

    late.open();
    const answer = await late.response;
    assert.equal(answer.status, 503);
    assert.equal((await errorBody(answer)).code, 'quota_unavailable');
    assert.deepEqual(
      reservations(service, account.id).map((row) => [row.state, row.error_code]),
      [
        ['returned', 'interrupted'],
        ['charged', null],
      ],
    );
    assert.equal(await creditsUsed(account.key), 1, 'charged once, by the other instance');
    assert.ok(service.logs.some((line) => line.event === 'charge_refused' && line.lease === 'key'));
    assert.ok(!service.logs.some((line) => line.event === 'settle_failed'), 'no return tried again');
  });

  it('should give the reservation back at once when only its key was claimed again', async () => {
    const account = await createAccount(service.store, { plan: 'pro' });
    const late = await stalled(account.key, account.id, 'order-2');
    service.clock.advance(DEFAULT_LEASE_MS);
    // No recovery ran yet: the reservation is still open under the stalled render's lease.
    assert.ok((await sibling.claimIdempotencyKey(account.id, 'order-2', 'print', 86_400_000)).claimed);

    late.open();
    const answer = await late.response;
    assert.equal(answer.status, 503);
    assert.equal((await errorBody(answer)).code, 'quota_unavailable');
    assert.deepEqual(
      reservations(service, account.id).map((row) => [row.state, row.error_code]),
      [['returned', 'quota_unavailable']],
    );
    assert.equal(await creditsUsed(account.key), 0);
    assert.deepEqual(await sibling.recoverExpired(), { released: 0, returned: 0 }, 'nothing left for recovery: the new claim is live');
  });
});
