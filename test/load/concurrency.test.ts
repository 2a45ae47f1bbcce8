/**
 * Accounting under concurrency, against `quire serve` as a child process: many simultaneous
 * requests under one Idempotency-Key render and charge once; many accounts near their quotas are
 * charged exactly what was delivered, never past the quota; per-minute and concurrent-render
 * limits are never exceeded (concurrency measured from the reservation rows themselves).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createAccounts, type SuiteAccount } from '../hostile/support/accounts.js';
import { spawnService, type ServiceProcess } from '../hostile/support/service-process.js';
import { bySuite } from '../hostile/support/suite-mode.js';

const SAME_KEY_REQUESTS = 200;
const ACCOUNTS = 20;
const REQUESTS_ACROSS_ACCOUNTS = bySuite(300, 1_000);

describe('accounting under concurrency', () => {
  let service: ServiceProcess;

  before(async () => {
    service = await spawnService({ env: { QUIRE_QUEUE_LIMIT: '1000' } });
  });
  after(() => service.stop());

  it(`should render and charge once for ${SAME_KEY_REQUESTS} simultaneous requests under one Idempotency-Key`, async () => {
    const [account] = await createAccounts(service.dbFile, [{ plan: 'scale', overrides: { requests_per_min: 1_000_000, concurrency: 1_000 } }]);
    // 800 formulas: 20 KB that take seconds to typeset, so every duplicate arrives while the first still renders.
    const markdown = `# Once\n\n${Array.from({ length: 800 }, (_, i) => `$\\frac{x_{${i}}}{y^{${i}}}$`).join(' ')}`;
    const answers = await Promise.all(
      Array.from({ length: SAME_KEY_REQUESTS }, async () => {
        const response = await fetch(`${service.url}/v1/render`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${account!.key}`, 'Content-Type': 'text/markdown', 'Idempotency-Key': 'one-key' },
          body: markdown,
        });
        const body = Buffer.from(await response.arrayBuffer());
        const code = response.status === 200 ? undefined : (JSON.parse(body.toString()) as { code: string }).code;
        return { status: response.status, code, replay: response.headers.get('x-service-replay') === 'true' };
      }),
    );
    const firsts = answers.filter((answer) => answer.status === 200 && !answer.replay);
    const others = answers.filter((answer) => !(answer.status === 200 && !answer.replay));
    assert.equal(firsts.length, 1, 'exactly one request rendered as the first attempt');
    for (const other of others) {
      assert.ok((other.status === 409 && other.code === 'idempotency_in_progress') || (other.status === 200 && other.replay), JSON.stringify(other));
    }
    const rows = reservationRows(service.dbFile, account!.id);
    assert.deepEqual(
      rows.map((row) => row.state),
      ['charged'],
      'one reservation, charged',
    );
    assert.equal(usedDocuments(service.dbFile, account!.id), 1);
  });

  it(`should charge min(delivered, quota) across ${ACCOUNTS} accounts near their quotas, within their rate and concurrency limits`, async () => {
    const plans = Array.from({ length: ACCOUNTS }, (_, n) => ({
      documents: 3 + ((n * 7) % 23), // 3…25 documents: most accounts run out
      requests_per_min: n % 4 === 0 ? 20 : 10_000,
      concurrency: 1 + (n % 3),
    }));
    const accounts = await createAccounts(
      service.dbFile,
      plans.map((overrides) => ({ plan: 'starter' as const, overrides })),
    );
    const perAccount = Math.ceil(REQUESTS_ACROSS_ACCOUNTS / ACCOUNTS);
    const started = Date.now();
    const outcomes = await Promise.all(
      accounts.map(async (account, n) => {
        // A few more in flight than the account's concurrency, so its limit is tried.
        const lanes = plans[n]!.concurrency + 2;
        const answers: { status: number; code?: string; limit?: string }[] = [];
        let next = 0;
        await Promise.all(
          Array.from({ length: lanes }, async () => {
            while (next < perAccount) {
              next += 1;
              answers.push(await renderOnce(service, account, `# Document ${next}\n\nFor account ${n}.`));
            }
          }),
        );
        return answers;
      }),
    );
    assert.ok(Date.now() - started < 60_000, 'all within one minute, so the per-minute limit applies to every request');

    for (const [n, answers] of outcomes.entries()) {
      const account = accounts[n]!;
      const plan = plans[n]!;
      const delivered = answers.filter((answer) => answer.status === 200).length;
      const exhausted = answers.filter((answer) => answer.code === 'quota_exhausted').length;
      const admitted = answers.filter((answer) => !(answer.code === 'rate_limited' && answer.limit === 'requests_per_min')).length;
      const unexpected = answers.filter((answer) => answer.status !== 200 && !['quota_exhausted', 'rate_limited'].includes(answer.code ?? ''));
      assert.deepEqual(unexpected, [], `account ${n}: only deliveries, quota and rate refusals`);
      const charged = reservationRows(service.dbFile, account.id).filter((row) => row.state === 'charged').length;
      assert.equal(charged, delivered, `account ${n}: charged what was delivered`);
      assert.equal(usedDocuments(service.dbFile, account.id), delivered, `account ${n}: the period counts the same`);
      assert.equal(delivered, Math.min(delivered + exhausted, plan.documents), `account ${n}: min(delivered, quota)`);
      assert.ok(delivered <= plan.documents, `account ${n}: nothing rendered beyond the quota`);
      assert.ok(admitted <= plan.requests_per_min, `account ${n}: ${admitted} admitted over ${plan.requests_per_min} per minute`);
      const overlap = maxOverlap(reservationRows(service.dbFile, account.id));
      assert.ok(overlap <= plan.concurrency, `account ${n}: ${overlap} renders at once over ${plan.concurrency}`);
    }
  });
});

async function renderOnce(service: ServiceProcess, account: SuiteAccount, markdown: string): Promise<{ status: number; code?: string; limit?: string }> {
  const response = await fetch(`${service.url}/v1/render`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'text/markdown' },
    body: markdown,
  });
  if (response.status === 200) {
    await response.arrayBuffer();
    return { status: 200 };
  }
  const body = (await response.json()) as { code: string; limit?: { name: string } };
  return { status: response.status, code: body.code, ...(body.limit && { limit: body.limit.name }) };
}

interface Row {
  state: string;
  created_at: number;
  settled_at: number | null;
}

function reservationRows(dbFile: string, accountId: string): Row[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db
      .prepare(`SELECT r.state, r.created_at, r.settled_at FROM reservations r JOIN periods p ON p.id = r.period_id WHERE p.account_id = ? ORDER BY r.id`)
      .all(accountId) as Row[];
  } finally {
    db.close();
  }
}

function usedDocuments(dbFile: string, accountId: string): number {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT COALESCE(SUM(used), 0) AS used FROM periods WHERE account_id = ?').get(accountId) as { used: number }).used;
  } finally {
    db.close();
  }
}

/** Most reservations open at one instant (reserved → settled), a reservation being held inside a concurrency slot. */
function maxOverlap(rows: Row[]): number {
  const events = rows.flatMap((row) => [
    { at: row.created_at, change: 1 },
    { at: row.settled_at ?? Number.POSITIVE_INFINITY, change: -1 },
  ]);
  events.sort((a, b) => a.at - b.at || a.change - b.change); // at one instant, ends before starts
  let open = 0;
  let most = 0;
  for (const event of events) most = Math.max(most, (open += event.change));
  return most;
}
