/**
 * The database failing under a running service: locked by another writer (busy) and unable to
 * grow (disk full, simulated with SQLite's `max_page_count` on the service's own connection).
 * Either way the render answers 503 `quota_unavailable` with the PDF withheld, nothing is
 * counted, and the service recovers once the database does — without a restart.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createAccounts, type SuiteAccount } from '../hostile/support/accounts.js';
import { startInProcess, type InProcessService } from './support/in-process.js';

describe('the database failing under a running service', () => {
  let service: InProcessService;

  before(async () => {
    service = await startInProcess({ workers: 1, busyTimeoutMs: 300 });
  });
  after(() => service.close());

  it('should answer a render whose charge meets a locked database 503 quota_unavailable, then give the document and the key back without a restart', async () => {
    const [account] = await createAccounts(service.dbFile, [{ plan: 'starter', overrides: { requests_per_min: 1000, concurrency: 10 } }]);
    const sent = render(service, account!, 'sleep:700\n# Locked while rendering', 'locked-key');
    await sleep(250); // the document is reserved and rendering
    const other = new Database(service.dbFile);
    other.exec('BEGIN EXCLUSIVE');
    const response = await sent;
    await sleep(1_000); // the first tries to give the document back meet the lock too
    other.exec('ROLLBACK');
    other.close();

    assert.equal(response.status, 503);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(((await response.json()) as { code: string }).code, 'quota_unavailable');
    await until(() => ledger(service.dbFile, account!.id).reserved === 0);
    assert.deepEqual(ledger(service.dbFile, account!.id), { charged: 0, returned: 1, reserved: 0, used: 0, periodReserved: 0, keysInProgress: 0 });

    const retried = await render(service, account!, '# Locked while rendering', 'locked-key');
    assert.equal(retried.status, 200, 'the key was released: a retry is a first attempt');
    assert.equal(retried.headers.get('x-service-replay'), null);
    await retried.arrayBuffer();
    assert.equal(ledger(service.dbFile, account!.id).used, 1);
  });

  it('should answer 503 quota_unavailable while the database cannot grow, count nothing for it, and render again once it can', async () => {
    const [account] = await createAccounts(service.dbFile, [{ plan: 'scale', overrides: { requests_per_min: 100_000, concurrency: 10 } }]);
    const connection = service.connection();
    connection.pragma(`max_page_count = ${connection.pragma('page_count', { simple: true }) as number}`);
    const statuses: number[] = [];
    let refusal: Response | undefined;
    try {
      for (let n = 0; n < 2_000 && !refusal; n += 1) {
        const response = await render(service, account!, `# Filling ${n}`, `fill-${n}-${'x'.repeat(100)}`);
        statuses.push(response.status);
        if (response.status === 200) await response.arrayBuffer();
        else refusal = response;
      }
      assert.ok(refusal, 'the database filled up');
      assert.equal(refusal.status, 503);
      assert.equal(((await refusal.json()) as { code: string }).code, 'quota_unavailable');
    } finally {
      connection.pragma('max_page_count = 1073741823');
    }
    const delivered = statuses.filter((status) => status === 200).length;
    await until(() => ledger(service.dbFile, account!.id).reserved === 0);
    const after = ledger(service.dbFile, account!.id);
    assert.equal(after.used, delivered, 'only delivered documents are charged');
    assert.equal(after.charged, delivered);
    assert.equal(after.keysInProgress, 0);

    const next = await render(service, account!, '# Room again', 'room-again');
    assert.equal(next.status, 200);
    await next.arrayBuffer();
    assert.equal(ledger(service.dbFile, account!.id).used, delivered + 1);
  });
});

function render(service: InProcessService, account: SuiteAccount, markdown: string, idempotencyKey: string): Promise<Response> {
  return fetch(`${service.url}/v1/render`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'text/markdown', 'Idempotency-Key': idempotencyKey },
    body: markdown,
  });
}

interface Ledger {
  charged: number;
  returned: number;
  reserved: number;
  /** The period's counters, which must agree with the reservation rows. */
  used: number;
  periodReserved: number;
  keysInProgress: number;
}

function ledger(dbFile: string, accountId: string): Ledger {
  const db = new Database(dbFile, { readonly: true });
  try {
    const count = (state: string) =>
      (
        db
          .prepare(`SELECT COUNT(*) AS n FROM reservations r JOIN periods p ON p.id = r.period_id WHERE p.account_id = ? AND r.state = ?`)
          .get(accountId, state) as { n: number }
      ).n;
    const period = db
      .prepare('SELECT COALESCE(SUM(used), 0) AS used, COALESCE(SUM(reserved), 0) AS reserved FROM periods WHERE account_id = ?')
      .get(accountId) as { used: number; reserved: number };
    const keys = (db.prepare(`SELECT COUNT(*) AS n FROM idempotency_keys WHERE account_id = ? AND state = 'in_progress'`).get(accountId) as { n: number }).n;
    return {
      charged: count('charged'),
      returned: count('returned'),
      reserved: count('reserved'),
      used: period.used,
      periodReserved: period.reserved,
      keysInProgress: keys,
    };
  } finally {
    db.close();
  }
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return;
    await sleep(100);
  }
}
