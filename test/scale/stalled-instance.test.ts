/**
 * An instance stopped (SIGSTOP) in the middle of a render, past its lease, while another
 * instance on the same PostgreSQL database returns its reservation, releases its key and serves
 * the client's retry under the same Idempotency-Key. When the stopped instance wakes and its
 * render finishes, its late charge is refused cleanly — 503 `quota_unavailable`, never 500 —
 * and the key stays charged exactly once, by the instance that delivered it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccounts } from '../hostile/support/accounts.js';
import { spawnService, type ServiceProcess } from '../hostile/support/service-process.js';
import { freshDatabase, type TestDatabase } from '../support/postgres.js';
import { HeldImages, render, until, type Answer } from './support/held-renders.js';

const LEASE_S = 2;
const ENV = {
  QUIRE_MASTER_KEY: '5a'.repeat(32),
  QUIRE_LEASE_S: String(LEASE_S),
  QUIRE_WORKERS: '2',
  QUIRE_NET_ALLOW_LOOPBACK: '1',
  // The stopped instance's image load must outlive the stop: its timers run late, not its clock.
  QUIRE_NET_RESOURCE_TIMEOUT_S: '120',
};
const KEY = 'stalled-order';
/** Bound on each wait: several leases, on a loaded machine. */
const WAIT_MS = 15_000;

describe('an instance stopped past its lease in the middle of a render', () => {
  let database: TestDatabase;
  let stalled: ServiceProcess;
  let sibling: ServiceProcess;
  let stopped = false;
  const images = new HeldImages();

  before(async () => {
    database = await freshDatabase('stalled');
    await images.start();
    stalled = await spawnService({ dbFile: database.url, env: ENV });
    sibling = await spawnService({ dbFile: database.url, env: ENV });
  });
  after(async () => {
    // A stopped process cannot even be killed until it runs again.
    if (stopped) process.kill(stalled.pid, 'SIGCONT');
    await Promise.all([stalled?.kill(), sibling?.kill()]);
    await images.close();
    await database?.drop();
  });

  it('should refuse the late charge with 503 quota_unavailable and charge the key once, on the instance that served the retry', async () => {
    const [account] = await createAccounts(database.url, [{ plan: 'pro', overrides: { requests_per_min: 1_000, concurrency: 5 } }]);
    const markdown = `# Order\n\n![held](${images.url('order')})`;
    const rows = () =>
      database.query<{ state: string; error_code: string | null }>(
        'SELECT r.state, r.error_code FROM reservations r JOIN periods p ON p.id = r.period_id WHERE p.account_id = $1 ORDER BY r.id',
        [account!.id],
      );
    const keyRows = () => database.query<{ state: string }>('SELECT state FROM idempotency_keys WHERE account_id = $1 AND idem_key = $2', [account!.id, KEY]);

    images.hold();
    // Its answer may never come (the connection may be lost on the way); then no answer at all.
    const late: Promise<Answer | undefined> = render(stalled, account!, markdown, KEY).catch(() => undefined);
    await until(() => images.arrived >= 1, 'the first render to load its image', WAIT_MS);
    assert.deepEqual(await rows(), [{ state: 'reserved', error_code: null }]);

    process.kill(stalled.pid, 'SIGSTOP');
    stopped = true;
    const stoppedAt = Date.now();
    await until(
      async () => (await rows())[0]?.state === 'returned' && (await keyRows()).length === 0,
      "the sibling to return the stopped instance's reservation and release its key",
      WAIT_MS,
    );
    const recoveredAfterMs = Date.now() - stoppedAt;

    // The client's retry, on the instance that runs.
    images.release();
    const served = await render(sibling, account!, markdown, KEY);
    assert.deepEqual(served, { status: 200, code: undefined, replay: false });

    process.kill(stalled.pid, 'SIGCONT');
    stopped = false;
    const lateAnswer = await late;
    if (lateAnswer) assert.deepEqual(lateAnswer, { status: 503, code: 'quota_unavailable', replay: false }, 'the late charge is refused, the PDF withheld');
    await until(() => stalled.logs.some((line) => line.event === 'charge_refused'), 'the stopped instance to note its refused charge', WAIT_MS);
    console.log(`stalled-instance figures: ${JSON.stringify({ leaseS: LEASE_S, recoveredAfterMs, lateAnswer: lateAnswer ?? 'lost' })}`);

    // Exactly one charge for the key, whichever instance is asked.
    const replay = await render(stalled, account!, markdown, KEY);
    assert.deepEqual(replay, { status: 200, code: undefined, replay: true }, 'the key replays the one delivered render');
    for (const instance of [stalled, sibling]) {
      const response = await fetch(`${instance.url}/v1/usage`, { headers: { Authorization: `Bearer ${account!.key}` } });
      const usage = (await response.json()) as { credits_used: number; keys: { credits: number }[] };
      assert.equal(usage.credits_used, 1);
      assert.deepEqual(
        usage.keys.map((key) => key.credits),
        [1],
      );
    }
    assert.deepEqual(await rows(), [
      { state: 'returned', error_code: 'interrupted' },
      { state: 'charged', error_code: null },
    ]);
    assert.deepEqual(await keyRows(), [{ state: 'completed' }]);
    const periods = await database.query<{ used: number; reserved: number }>('SELECT used, reserved FROM periods WHERE account_id = $1', [account!.id]);
    assert.deepEqual(periods, [{ used: 1, reserved: 0 }]);
    // Whatever became of the late answer on its way, the instance never answered 500.
    const statuses = stalled.logs.filter((line) => line.event === 'request' && line.route === '/v1/render').map((line) => line.status);
    assert.ok(statuses.includes(503) && !statuses.includes(500), `the stopped instance's render answers: ${JSON.stringify(statuses)}`);
  });
});
