/**
 * The Store contract, written once against the interface so another implementation (PostgreSQL)
 * can run the same suite; here it runs against SQLite files.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { QuotaExhaustedError, type Store } from '../../src/store/store.js';
import { ManualClock } from './harness.js';

const DAY = 86_400_000;

function storeContract(name: string, open: (clock: ManualClock) => Promise<{ store: Store; reopen(): Promise<Store> }>) {
  describe(`Store contract: ${name}`, () => {
    let clock: ManualClock;
    let store: Store;
    let reopen: () => Promise<Store>;

    beforeEach(async () => {
      clock = new ManualClock(Date.parse('2025-05-20T10:00:00Z'));
      ({ store, reopen } = await open(clock));
    });
    afterEach(() => store.close());

    async function account(documents?: number) {
      const created = await store.createAccount({ email: `${Math.random()}@example.com`, plan: 'starter', emailVerified: true });
      if (documents !== undefined) await store.updateAccount(created.id, { overrides: { documents } });
      const key = await store.createApiKey(created.id, 'k');
      return { id: created.id, keyId: key.id, key: key.key };
    }

    it('should let exactly one of many simultaneous claims of a key win', async () => {
      const { id } = await account();
      const claims = await Promise.all(Array.from({ length: 20 }, () => store.claimIdempotencyKey(id, 'k', 'print', DAY)));
      assert.equal(claims.filter((claim) => claim.claimed).length, 1);
      assert.ok(claims.every((claim) => claim.claimed || claim.record.state === 'in_progress'));
    });

    it('should let only the claiming request release its key', async () => {
      const { id } = await account();
      const first = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(first.claimed);
      await store.releaseIdempotencyKey({ ...first.ticket, token: 'someone else' });
      assert.equal((await store.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed, false);
      await store.releaseIdempotencyKey(first.ticket);
      assert.equal((await store.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed, true);
    });

    it('should complete a key with its charge, count replays up to the allowance, and give one back', async () => {
      const { id, keyId } = await account();
      const claim = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(claim.claimed);
      const reservation = await store.reserveDocument(id, keyId);
      await store.chargeReservation(reservation.id, 2, claim.ticket);
      const taken = [];
      for (let i = 0; i < 3; i += 1) taken.push(await store.takeReplay(id, 'k', 'print', 2, DAY));
      assert.deepEqual(taken, [true, true, false]);
      assert.equal(await store.takeReplay(id, 'k', 'other print', 5, DAY), false);
      await store.giveBackReplay(id, 'k', 'print');
      assert.equal(await store.takeReplay(id, 'k', 'print', 2, DAY), true);
      const again = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(!again.claimed && again.record.state === 'completed' && again.record.replays === 2);
    });

    it('should let a claim take over a key past its lifetime', async () => {
      const { id } = await account();
      assert.ok((await store.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed);
      clock.advance(DAY - 1);
      assert.equal((await store.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed, false);
      clock.advance(1);
      assert.equal((await store.claimIdempotencyKey(id, 'k', 'new print', DAY)).claimed, true);
    });

    it('should never reserve past included plus granted documents, counting renders in flight', async () => {
      const { id, keyId } = await account(3);
      const attempts = await Promise.allSettled(Array.from({ length: 10 }, () => store.reserveDocument(id, keyId)));
      assert.equal(attempts.filter((a) => a.status === 'fulfilled').length, 3);
      assert.ok(attempts.every((a) => a.status === 'fulfilled' || a.reason instanceof QuotaExhaustedError));
      const [first] = attempts.filter((a): a is PromiseFulfilledResult<{ id: string; periodId: string }> => a.status === 'fulfilled');
      await store.returnReservation(first!.value.id, 'render_timeout', undefined);
      await store.reserveDocument(id, keyId);
      await assert.rejects(store.reserveDocument(id, keyId), QuotaExhaustedError);
      await store.grantDocuments(id, 1);
      await store.reserveDocument(id, keyId);
    });

    it('should refuse to settle a reservation twice', async () => {
      const { id, keyId } = await account();
      const reservation = await store.reserveDocument(id, keyId);
      await store.chargeReservation(reservation.id, 1);
      await assert.rejects(store.returnReservation(reservation.id, 'render_failed', undefined));
      assert.equal((await store.usage(id))?.period.used, 1);
    });

    it('should return open reservations and release keys in progress after an interruption', async () => {
      const { id, keyId } = await account(1);
      const claim = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      await store.reserveDocument(id, keyId);
      await assert.rejects(store.reserveDocument(id, keyId), QuotaExhaustedError);
      store = await reopen();
      assert.deepEqual(await store.recoverInterrupted(), { released: 1, returned: 1 });
      assert.ok(claim.claimed);
      assert.equal((await store.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed, true);
      await store.reserveDocument(id, keyId);
    });

    it('should drop idempotency records past their lifetime during maintenance', async () => {
      const { id } = await account();
      await store.claimIdempotencyKey(id, 'old', 'print', DAY);
      clock.advance(DAY);
      await store.claimIdempotencyKey(id, 'new', 'print', DAY);
      await store.maintain(DAY);
      const old = await store.claimIdempotencyKey(id, 'old', 'other', DAY);
      const fresh = await store.claimIdempotencyKey(id, 'new', 'other', DAY);
      assert.deepEqual([old.claimed, fresh.claimed], [true, false]);
    });

    it('should authenticate live keys only, and keep the same fingerprint secret across restarts', async () => {
      const { key, keyId } = await account();
      assert.equal((await store.authenticate(key))?.keyId, keyId);
      assert.equal(await store.authenticate(`${key}x`), undefined);
      const secret = await store.secret('fingerprint');
      assert.equal(secret.byteLength, 32);
      store = await reopen();
      assert.deepEqual(await store.secret('fingerprint'), secret);
      await store.revokeApiKey(keyId);
      assert.equal(await store.authenticate(key), undefined);
    });
  });
}

const folders: string[] = [];
after(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

storeContract('SQLite', async (clock) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'quire-store-'));
  folders.push(folder);
  const file = path.join(folder, 'quire.db');
  let current: Store = SqliteStore.open(file, clock);
  return {
    store: current,
    async reopen() {
      await current.close();
      current = SqliteStore.open(file, clock);
      return current;
    },
  };
});
