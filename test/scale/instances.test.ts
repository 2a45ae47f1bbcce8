/**
 * Several `quire serve` processes on one PostgreSQL database, as operators run them behind a
 * load balancer. Every per-account guarantee holds across them under concurrent load, and a
 * killed instance's documents and render slots come back once its leases expire while the
 * others keep serving.
 *
 * Renders that must stay in flight link an image on a loopback server the test holds open
 * (QUIRE_NET_ALLOW_LOOPBACK=1): the worker waits on it until the test lets it go.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccounts, type SuiteAccount } from '../hostile/support/accounts.js';
import { spawnService, type ServiceProcess } from '../hostile/support/service-process.js';
import { freshDatabase, type TestDatabase } from '../support/postgres.js';
import { HeldImages, render, tally, until } from './support/held-renders.js';

const LEASE_S = 2;
const ENV = {
  QUIRE_MASTER_KEY: '5a'.repeat(32),
  QUIRE_LEASE_S: String(LEASE_S),
  // Two renders held on one instance must leave it a worker for the rest.
  QUIRE_WORKERS: '3',
  QUIRE_QUEUE_LIMIT: '400',
  QUIRE_NET_ALLOW_LOOPBACK: '1',
};

describe('service instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  const instances: ServiceProcess[] = [];
  const images = new HeldImages();

  before(async () => {
    database = await freshDatabase('instances');
    await images.start();
    // The first instance creates the schema; the second starts beside it.
    instances.push(await spawnService({ dbFile: database.url, env: ENV }));
    instances.push(await spawnService({ dbFile: database.url, env: ENV }));
  });
  after(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
    await images.close();
    await database.drop();
  });

  /** Every reservation settled once; each period's counters agree with its rows. */
  async function checkBooks(): Promise<void> {
    const open = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM reservations WHERE state = 'reserved'`);
    assert.equal(open[0]!.n, 0, 'no reservation left open');
    const periods = await database.query<{ used: number; reserved: number; charged: number }>(
      `SELECT p.used, p.reserved, (SELECT count(*)::int FROM reservations r WHERE r.period_id = p.id AND r.state = 'charged') AS charged FROM periods p`,
    );
    for (const period of periods) assert.deepEqual([period.used, period.reserved], [period.charged, 0], 'period counters agree with their rows');
  }

  async function used(account: SuiteAccount): Promise<number> {
    const rows = await database.query<{ used: number }>('SELECT COALESCE(sum(used), 0)::int AS used FROM periods WHERE account_id = $1', [account.id]);
    return rows[0]!.used;
  }

  it('should hold quota, requests per minute, concurrent renders, replays and keys across two instances under 200 concurrent requests', async () => {
    const [quota, rate, slots, keyed, replayed] = await createAccounts(database.url, [
      { plan: 'pro', overrides: { documents: 20, requests_per_min: 1_000, concurrency: 50 } },
      { plan: 'pro', overrides: { requests_per_min: 15, concurrency: 50 } },
      { plan: 'pro', overrides: { requests_per_min: 1_000, concurrency: 2 } },
      { plan: 'pro', overrides: { requests_per_min: 1_000, concurrency: 50 } },
      { plan: 'pro', overrides: { requests_per_min: 1_000, concurrency: 50 } },
    ]);
    assert.equal((await render(instances[0]!, replayed!, '# Replayed', 'replayed-key')).status, 200);
    const on = (index: number) => instances[index % instances.length]!;

    // First the renders that hold both of `slots`' render slots (on either instance) until released.
    images.hold();
    const gated = Array.from({ length: 40 }, (_, i) => render(on(i), slots!, `# Gated ${i}\n\n![held](${images.url(`gate-${i}`)})`));
    await until(() => images.arrived >= 2, 'two gated renders to start');
    const others = [
      ...Array.from({ length: 50 }, (_, i) => render(on(i), quota!, `# Quota ${i}`)),
      ...Array.from({ length: 40 }, (_, i) => render(on(i), rate!, `# Rate ${i}`)),
      ...Array.from({ length: 30 }, (_, i) => render(on(i), keyed!, '# Once', 'one-key')),
      ...Array.from({ length: 40 }, (_, i) => render(on(i), replayed!, '# Replayed', 'replayed-key')),
    ];
    const answered = await Promise.all(others);
    assert.equal(images.arrived, 2, 'no more than two renders of the account ever started');
    images.release();
    const gatedAnswers = await Promise.all(gated);

    assert.deepEqual(tally(gatedAnswers), { delivered: 2, '429 rate_limited': 38 });
    assert.deepEqual(tally(answered.slice(0, 50)), { delivered: 20, '402 quota_exhausted': 30 });
    assert.deepEqual(tally(answered.slice(50, 90)), { delivered: 15, '429 rate_limited': 25 });
    const once = tally(answered.slice(90, 120));
    assert.equal(once.delivered, 1, `one key renders once: ${JSON.stringify(once)}`);
    assert.ok((once.replayed ?? 0) <= 5, 'replays within the allowance');
    assert.deepEqual(tally(answered.slice(120)), { replayed: 5, '429 idempotency_replay_limit': 35 });

    assert.deepEqual(await Promise.all([quota, rate, slots, keyed, replayed].map((account) => used(account!))), [20, 15, 2, 1, 1]);
    await checkBooks();
  });

  it('should answer 503 quota_unavailable and count nothing while the database is gone, then serve again', async () => {
    const [account] = await createAccounts(database.url, [{ plan: 'pro', overrides: { requests_per_min: 1_000 } }]);
    const instance = instances[0]!;
    assert.equal((await render(instance, account!, '# Before')).status, 200);
    await database.cutOff();
    try {
      const refused = await Promise.all(instances.map((each) => render(each, account!, '# While gone')));
      assert.deepEqual(tally(refused), { [`503 quota_unavailable`]: instances.length });
      const ready = await fetch(`${instance.url}/readyz`);
      assert.equal(ready.status, 503);
      assert.equal(((await ready.json()) as { database: string }).database, 'unavailable');
    } finally {
      await database.restore();
    }
    await until(async () => (await render(instance, account!, '# After')).status === 200, 'the instance to serve again');
    assert.equal(await used(account!), 2);
    assert.equal(
      instance.logs.some((line) => line.event === 'database_connection_lost'),
      true,
      'the dropped idle connections were noticed, not thrown',
    );
    await checkBooks();
  });

  it("should hold the quota over three instances, and return a killed instance's work when its lease expires while the others serve", async () => {
    instances.push(await spawnService({ dbFile: database.url, env: ENV }));
    const [burst, victim] = await createAccounts(database.url, [
      { plan: 'pro', overrides: { documents: 50, requests_per_min: 1_000, concurrency: 250 } },
      { plan: 'pro', overrides: { documents: 10, requests_per_min: 1_000, concurrency: 2 } },
    ]);
    const burstAnswers = await Promise.all(Array.from({ length: 200 }, (_, i) => render(instances[i % 3]!, burst!, `# Burst ${i}`)));
    assert.deepEqual(tally(burstAnswers), { delivered: 50, '402 quota_exhausted': 150 });

    images.hold();
    const doomed = instances[2]!;
    const cutOff = [0, 1].map((i) => render(doomed, victim!, `# Doomed ${i}\n\n![held](${images.url(`doomed-${i}`)})`).catch(() => undefined));
    await until(() => images.arrived >= 2, 'the doomed renders to start');
    const open = () => database.query<{ n: number }>(`SELECT count(*)::int AS n FROM reservations WHERE state = 'reserved'`).then((rows) => rows[0]!.n);
    assert.equal(await open(), 2);
    await doomed.kill();
    const killedAt = Date.now();
    await Promise.all(cutOff);
    images.release();

    // The others keep serving; the dead instance's slots hold until its lease expires.
    assert.equal((await render(instances[0]!, burst!, '# Still here')).code, 'quota_exhausted');
    const early = await render(instances[1]!, victim!, '# Too early');
    assert.equal(early.code, 'rate_limited', "both render slots are still held under the dead instance's lease");
    const returnedAfterMs = await until(async () => (await open()) === 0, "the dead instance's reservations to be returned");
    const elapsedMs = Date.now() - killedAt;
    assert.ok(elapsedMs <= LEASE_S * 1000 * 2 + 2_000, `returned ${elapsedMs} ms after the kill`);
    console.log(
      `lease figures: ${JSON.stringify({ leaseS: LEASE_S, returnedAfterKillMs: elapsedMs, waitedMs: returnedAfterMs, earlyAnswer: early.code ?? early.status })}`,
    );
    const interrupted = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM reservations WHERE error_code = 'interrupted'`);
    assert.equal(interrupted[0]!.n, 2);
    await until(async () => (await render(instances[0]!, victim!, '# After the lease')).status === 200, 'the victim to render again');
    assert.ok((await used(victim!)) >= 1 && (await used(victim!)) <= 2);
    await checkBooks();
  });
});
