/**
 * The Store contract, written once against the interface and run against both implementations:
 * a new SQLite file and a new PostgreSQL database for each test. "Instances" are separate stores on the same
 * database, each with its own lease holder, as separate service processes would be.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { MIGRATIONS } from '../../../src/store/migrations.js';
import { newLeaseHolder, type LeaseHolder } from '../../../src/store/leases.js';
import { PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { LeaseLostError, QuotaExhaustedError, type Store } from '../../../src/store/store.js';
import { ManualClock } from '../../support/service-harness.js';
import { freshDatabase, type TestDatabase } from '../../support/postgres.js';
import { includedDocuments } from '../../../src/limits/plans.js';
import type { IncludedDocuments } from '../../../src/plan-terms.js';

const DAY = 86_400_000;
const LEASE_MS = 10_000;

interface Opened {
  store: Store;
  /** Closes `store` and opens the database again (a restart of the same instance). */
  reopen(): Promise<Store>;
  /** Another instance on the same database, with its own lease holder and period policy (closed after the test). */
  instance(holder?: LeaseHolder, included?: IncludedDocuments): Promise<Store>;
}

function storeContract(name: string, open: (clock: ManualClock) => Promise<Opened>) {
  describe(`Store contract: ${name}`, () => {
    let clock: ManualClock;
    let store: Store;
    let reopen: () => Promise<Store>;
    let instance: Opened['instance'];
    let others: Store[];

    beforeEach(async () => {
      clock = new ManualClock(Date.parse('2025-05-20T10:00:00Z'));
      others = [];
      const opened = await open(clock);
      ({ store, reopen } = opened);
      instance = async (holder, included) => {
        const other = await opened.instance(holder, included);
        others.push(other);
        return other;
      };
    });
    afterEach(async () => {
      await store.close();
      await Promise.all(others.map((other) => other.close()));
    });

    async function account(documents?: number) {
      const created = await store.createAccount({ email: `${Math.random()}@example.com`, plan: 'starter', emailVerified: true });
      if (documents !== undefined) await store.updateAccount(created.id, { overrides: { documents } });
      const key = await store.createApiKey(created.id, 'k');
      return { id: created.id, keyId: key.id, key: key.key };
    }

    it('should open each period with the documents its period policy includes, and no other number', async () => {
      const policed = await instance(undefined, ({ plan, overrides }) => overrides.documents ?? (plan === 'free' ? 2 : 7));
      const free = await policed.createAccount({ email: 'policy-free@example.com', plan: 'free', emailVerified: true });
      assert.equal((await policed.usage(free.id))?.period.included, 2, 'a scheduled period');
      const key = await policed.createApiKey(free.id, 'k');
      await policed.reserveDocument(free.id, key.id);
      await policed.reserveDocument(free.id, key.id);
      await assert.rejects(policed.reserveDocument(free.id, key.id), QuotaExhaustedError);
      await policed.changePlan(free.id, 'pro');
      assert.equal((await policed.usage(free.id))?.period.included, 7, 'the period opened by a change of plan');
    });

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
      const { id, keyId } = await account();
      const claim = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(claim.claimed);
      await store.chargeReservation((await store.reserveDocument(id, keyId)).id, 1, claim.ticket);
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

    it("should count editor downloads in the period's documents but in no key's spending", async () => {
      const { id, keyId } = await account();
      await store.chargeReservation((await store.reserveDocument(id, keyId)).id, 1);
      await store.chargeReservation((await store.reserveDocument(id, keyId, 'editor')).id, 1);
      await store.chargeReservation((await store.reserveDocument(id, keyId, 'editor')).id, 2);
      await store.returnReservation((await store.reserveDocument(id, keyId, 'editor')).id, 'render_failed', undefined);
      const usage = await store.usage(id);
      assert.equal(usage?.period.used, 3);
      assert.deepEqual(usage?.keys, [{ id: keyId, name: 'k', credits: 1 }]);
    });

    it('should leave a key that only downloaded through the editor out of the spending', async () => {
      const { id, keyId } = await account();
      await store.chargeReservation((await store.reserveDocument(id, keyId, 'editor')).id, 1);
      const usage = await store.usage(id);
      assert.equal(usage?.period.used, 1);
      assert.deepEqual(usage?.keys, []);
    });

    it('should return open reservations and release keys in progress once their lease expires, never a live one', async () => {
      const { id, keyId } = await account(1);
      const claim = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(claim.claimed);
      const reservation = await store.reserveDocument(id, keyId);
      await assert.rejects(store.reserveDocument(id, keyId), QuotaExhaustedError);
      const sibling = await instance();
      clock.advance(LEASE_MS - 1);
      assert.deepEqual(await sibling.recoverExpired(), { released: 0, returned: 0 }, 'a live lease is left alone');
      await store.renewLeases();
      clock.advance(LEASE_MS - 1);
      assert.deepEqual(await sibling.recoverExpired(), { released: 0, returned: 0 }, 'a renewed lease is left alone');
      assert.equal((await sibling.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed, false);
      clock.advance(1);
      assert.deepEqual(await sibling.recoverExpired(), { released: 1, returned: 1 });
      assert.deepEqual(await sibling.recoverExpired(), { released: 0, returned: 0 }, 'returned once');
      await assert.rejects(store.chargeReservation(reservation.id, 1, claim.ticket), LeaseLostError);
      assert.equal((await sibling.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed, true);
      await sibling.reserveDocument(id, keyId);
      assert.equal((await sibling.usage(id))?.period.used, 0);
    });

    it('should refuse a charge after a sibling returned its expired reservation, and count nothing', async () => {
      const { id, keyId } = await account(1);
      const claim = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(claim.claimed);
      const reservation = await store.reserveDocument(id, keyId);
      const sibling = await instance();
      clock.advance(LEASE_MS);
      assert.deepEqual(await sibling.recoverExpired(), { released: 1, returned: 1 });
      const refused = await store.chargeReservation(reservation.id, 3, claim.ticket, 'digest').catch((error: unknown) => error);
      assert.ok(refused instanceof LeaseLostError, `refused with LeaseLostError: ${String(refused)}`);
      await assert.rejects(store.returnReservation(reservation.id, 'render_failed', 3, claim.ticket), LeaseLostError, 'returned once, by the sibling');
      const usage = await store.usage(id);
      assert.equal(usage?.period.used, 0);
      assert.deepEqual(usage?.keys, [{ id: keyId, name: 'k', credits: 0 }]);
      // Exactly the one document is free again (none still counted as reserved), and the key can be claimed anew.
      const again = await sibling.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(again.claimed);
      await sibling.chargeReservation((await sibling.reserveDocument(id, keyId)).id, 1, again.ticket);
      await assert.rejects(sibling.reserveDocument(id, keyId), QuotaExhaustedError);
      assert.equal((await store.usage(id))?.period.used, 1);
    });

    it('should refuse a charge whose key another claim took over, charging nothing, and let the new claim charge once', async () => {
      const { id, keyId } = await account(2);
      const stalled = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(stalled.claimed);
      const reservation = await store.reserveDocument(id, keyId);
      const sibling = await instance();
      clock.advance(LEASE_MS);
      // Taken over before any recovery ran: the stalled reservation itself is still open.
      const takeover = await sibling.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(takeover.claimed);
      const refused = await store.chargeReservation(reservation.id, 1, stalled.ticket, 'digest').catch((error: unknown) => error);
      assert.ok(refused instanceof LeaseLostError && refused.lease === 'key', `refused for the key: ${String(refused)}`);
      assert.equal((await store.usage(id))?.period.used, 0, 'nothing charged');
      await store.returnReservation(reservation.id, 'quota_unavailable', 1, stalled.ticket);
      assert.equal((await sibling.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed, false, 'returning the stalled reservation left the new claim alone');
      await sibling.chargeReservation((await sibling.reserveDocument(id, keyId)).id, 1, takeover.ticket, 'digest');
      const record = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(!record.claimed && record.record.state === 'completed');
      const usage = await store.usage(id);
      assert.equal(usage?.period.used, 1, 'charged once');
      assert.deepEqual(usage?.keys, [{ id: keyId, name: 'k', credits: 1 }]);
      await sibling.reserveDocument(id, keyId);
      await assert.rejects(sibling.reserveDocument(id, keyId), QuotaExhaustedError, 'no document left counted as reserved');
    });

    it('should charge under a lease kept alive past its first term', async () => {
      const { id, keyId } = await account();
      const claim = await store.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(claim.claimed);
      const reservation = await store.reserveDocument(id, keyId);
      const sibling = await instance();
      clock.advance(LEASE_MS - 1);
      await store.renewLeases();
      clock.advance(LEASE_MS - 1);
      assert.deepEqual(await sibling.recoverExpired(), { released: 0, returned: 0 });
      await store.chargeReservation(reservation.id, 2, claim.ticket, 'digest');
      assert.equal((await store.usage(id))?.period.used, 1);
      const record = await sibling.claimIdempotencyKey(id, 'k', 'print', DAY);
      assert.ok(!record.claimed && record.record.state === 'completed' && record.record.resources === 'digest');
    });

    it('should let a claim take over a key left in progress under an expired lease', async () => {
      const { id } = await account();
      assert.ok((await store.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed);
      const sibling = await instance();
      assert.equal((await sibling.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed, false);
      clock.advance(LEASE_MS);
      assert.equal((await sibling.claimIdempotencyKey(id, 'k', 'print', DAY)).claimed, true);
    });

    it('should hold editor previews for an hour and say how many are held', async () => {
      const { id } = await account();
      const sibling = await instance();
      assert.ok((await store.takeTokens(id, 'preview', 2, 1)).granted);
      assert.ok((await sibling.takeTokens(id, 'preview', 2, 1)).granted);
      assert.equal(await store.tokensHeld(id, 'preview', 2), 2);
      const refused = await store.takeTokens(id, 'preview', 2, 1);
      assert.ok(!refused.granted && refused.freeInMs > 59 * 60_000 && refused.freeInMs <= 60 * 60_000);
      assert.equal(await sibling.tokensHeld(id, 'request', 5), 0, 'previews are not requests');
      clock.advance(60 * 60_000);
      assert.equal(await store.tokensHeld(id, 'preview', 2), 0);
      assert.ok((await store.takeTokens(id, 'preview', 2, 1)).granted);
    });

    it('should hold requests per minute as a sliding window shared by instances, all of a batch or none', async () => {
      const { id } = await account();
      const sibling = await instance();
      assert.ok((await store.takeTokens(id, 'request', 3, 1)).granted);
      clock.advance(20_000);
      assert.ok((await sibling.takeTokens(id, 'request', 3, 1)).granted);
      assert.deepEqual(await store.takeTokens(id, 'request', 3, 2), { granted: false, freeInMs: 40_000 }, 'two asked, one free: none taken');
      assert.ok((await store.takeTokens(id, 'request', 3, 1)).granted);
      assert.deepEqual(await sibling.takeTokens(id, 'request', 3, 1), { granted: false, freeInMs: 40_000 });
      assert.deepEqual(await sibling.takeTokens(id, 'request', 3, 4), { granted: false, freeInMs: 60_000 }, 'more than the limit never fits');
      clock.advance(40_000);
      assert.ok((await sibling.takeTokens(id, 'request', 3, 1)).granted, 'the first request left the window');
      assert.equal((await sibling.takeTokens(id, 'request', 3, 1)).granted, false);
      const other = await account();
      assert.ok((await sibling.takeTokens(other.id, 'request', 3, 3)).granted, 'accounts are counted apart');
    });

    it('should grant every one of as many simultaneous requests as the limit, across instances, and refuse the next', async () => {
      const sibling = await instance();
      // Claims racing for the same few free slots, again and again: none may be refused while a slot is free.
      const rounds = Array.from(
        { length: 30 },
        (_, i) =>
          [
            [4, 1],
            [6, 2],
            [12, 3],
          ][i % 3] as [number, number],
      );
      for (const [limit, batch] of rounds) {
        const { id } = await account();
        const grants = await Promise.all(
          Array.from({ length: limit / batch }, (_, i) => (i % 2 === 0 ? store : sibling).takeTokens(id, 'request', limit, batch)),
        );
        assert.equal(grants.filter((grant) => grant.granted).length, limit / batch, `${limit} a minute in batches of ${batch}: all granted`);
        assert.equal(await store.tokensHeld(id, 'request', limit), limit);
        assert.equal((await sibling.takeTokens(id, 'request', limit, 1)).granted, false, 'the next is refused');
      }
    });

    it('should count previews per hour apart from requests', async () => {
      const { id } = await account();
      assert.ok((await store.takeTokens(id, 'preview', 1, 1)).granted);
      assert.ok((await store.takeTokens(id, 'request', 1, 1)).granted);
      clock.advance(60_000);
      assert.deepEqual(await store.takeTokens(id, 'preview', 1, 1), { granted: false, freeInMs: 3_540_000 });
    });

    it("should give render slots back, and take back a stopped instance's slots only when its lease expires", async () => {
      const { id } = await account();
      const first = await instance();
      const second = await instance();
      const held = await first.takeTokens(id, 'render', 2, 1);
      assert.ok(held.granted);
      assert.ok((await second.takeTokens(id, 'render', 2, 1)).granted);
      assert.equal((await store.takeTokens(id, 'render', 2, 1)).granted, false, 'both slots held across instances');
      await first.giveBackTokens(id, 'render', held.slots);
      await first.renewLeases();
      const retaken = await store.takeTokens(id, 'render', 2, 1);
      assert.ok(retaken.granted, 'a given-back slot is free, and renewal does not hold it again');
      // `second` stops renewing (killed); `store` renews. Only `second`'s slot comes back.
      clock.advance(LEASE_MS - 1);
      await store.renewLeases();
      clock.advance(1);
      const afterKill = await first.takeTokens(id, 'render', 2, 1);
      assert.ok(afterKill.granted);
      assert.equal((await first.takeTokens(id, 'render', 2, 1)).granted, false, 'the renewed slot is still held');
    });

    it('should never grant more render slots than the limit to many claims from several instances at once', async () => {
      const { id } = await account();
      const instances = [store, await instance(), await instance()];
      const grants = await Promise.all(Array.from({ length: 60 }, (_, i) => instances[i % 3]!.takeTokens(id, 'render', 5, 1)));
      const slots = grants.flatMap((grant) => (grant.granted ? grant.slots : []));
      assert.equal(slots.length, 5);
      assert.deepEqual([...new Set(slots)].sort(), [0, 1, 2, 3, 4]);
    });

    it('should open one period for the first reservations of an account arriving at once, refusing none', async () => {
      const created = await store.createAccount({ email: `${Math.random()}@example.com`, plan: 'pro', emailVerified: true });
      const { id: keyId } = await store.createApiKey(created.id, null);
      const instances = [store, await instance(), await instance()];
      await Promise.all(Array.from({ length: 24 }, (_, i) => instances[i % 3]!.reserveDocument(created.id, keyId)));
      const periods = new Set((await Promise.all(instances.map((each) => each.usage(created.id)))).map((usage) => usage?.period.id));
      assert.equal(periods.size, 1);
    });

    it('should never reserve past the quota from several instances at once', async () => {
      const { id, keyId } = await account(7);
      const instances = [store, await instance(), await instance()];
      const attempts = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => instances[i % 3]!.reserveDocument(id, keyId)));
      assert.equal(attempts.filter((a) => a.status === 'fulfilled').length, 7);
      assert.ok(attempts.every((a) => a.status === 'fulfilled' || a.reason instanceof QuotaExhaustedError));
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

const holder = () => newLeaseHolder(LEASE_MS);

storeContract('SQLite', async (clock) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'quire-store-'));
  folders.push(folder);
  const file = path.join(folder, 'quire.db');
  const open = (lease = holder(), included = includedDocuments) => SqliteStore.open(file, clock, { included, holder: lease });
  const own = holder();
  let current: Store = open(own);
  return {
    store: current,
    async reopen() {
      await current.close();
      current = open(own);
      return current;
    },
    instance: async (lease, included) => open(lease, included),
  };
});

const databases: TestDatabase[] = [];
after(() => Promise.all(databases.map((database) => database.drop())));

storeContract('PostgreSQL', async (clock) => {
  const database = await freshDatabase('store_contract');
  databases.push(database);
  const open = (lease = holder(), included = includedDocuments) => PostgresStore.open({ url: database.url, size: 4 }, clock, { included, holder: lease });
  const own = holder();
  let current: Store = await open(own);
  return {
    store: current,
    async reopen() {
      await current.close();
      current = await open(own);
      return current;
    },
    instance: (lease, included) => open(lease, included),
  };
});

describe('PostgreSQL migrations', () => {
  it('should apply each migration once when several instances start together on a new database', async () => {
    const fresh = await freshDatabase('migrations');
    try {
      const clock = new ManualClock(0);
      const stores = await Promise.all(
        Array.from({ length: 4 }, () => PostgresStore.open({ url: fresh.url, size: 2 }, clock, { included: includedDocuments })),
      );
      await Promise.all(stores.map((store) => store.close()));
      const versions = await fresh.query<{ version: number }>('SELECT version FROM schema_version ORDER BY version');
      assert.deepEqual(
        versions.map((row) => row.version),
        MIGRATIONS.map((_, index) => index + 1),
      );
    } finally {
      await fresh.drop();
    }
  });
});
