/**
 * `kill -9` of `quire serve` at random moments while renders run, then a restart on the same
 * SQLite file (WAL, synchronous=FULL), again and again, once the killed instance's one-second
 * leases have expired. After every restart: the database passes `PRAGMA integrity_check`;
 * reservations the kill left open were returned at start-up; no
 * idempotency key is left in progress; every charge is a reservation recorded as delivered (with
 * its page count) and the periods' counters agree with the rows; every PDF a client received is
 * charged, and no more were charged than requests the kill cut off.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createAccounts, type SuiteAccount } from '../hostile/support/accounts.js';
import { removeDir, spawnService, suiteDir } from '../hostile/support/service-process.js';
import { bySuite } from '../hostile/support/suite-mode.js';
import { seededRandom } from '../hostile/support/seeded-random.js';

const POINTS = bySuite(8, 100);
const SEED = Number(process.env.QUIRE_SEED ?? 20_261_122);
const REQUESTS_PER_BURST = 10;
const LONGEST_WAIT_MS = 1_500;
const LEASE_S = 1;

const DOCUMENTS = [
  '# Short\n\nA paragraph.',
  `# Longer\n\n${'A sentence to set, again and again. '.repeat(400)}`,
  '# Formula\n\n$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\n```ts\nconst a = 1;\n```',
  `# Table\n\n| a | b |\n|---|---|\n${'| one | two |\n'.repeat(120)}`,
];

interface Books {
  delivered: number;
  /** Requests whose answer the kill cut off: each may or may not have been charged. */
  cut: number;
}

describe(`kill -9 during renders (${POINTS} kills, seed ${SEED})`, () => {
  const dir = suiteDir('kill');
  const dbFile = path.join(dir, 'quire.db');
  after(() => removeDir(dir));

  it('should restart every time with the books straight', async () => {
    const random = seededRandom(SEED);
    const accounts = await createAccounts(
      dbFile,
      [0, 1, 2].map(() => ({ plan: 'scale' as const, overrides: { requests_per_min: 1_000_000, concurrency: 50 } })),
    );
    const books = new Map<string, Books>(accounts.map((account) => [account.id, { delivered: 0, cut: 0 }]));
    const deliveredKeys: { account: SuiteAccount; key: string; markdown: string }[] = [];
    let openAtKill = { reservations: 0, keys: 0 };
    let keyCounter = 0;

    for (let point = 1; point <= POINTS; point += 1) {
      const service = await spawnService({ dbFile, env: { QUIRE_LEASE_S: String(LEASE_S) } });
      const listening = service.logs.find((line) => line.event === 'listening') as { recovered: { returned: number; released: number } };
      assert.deepEqual(listening.recovered, { returned: openAtKill.reservations, released: openAtKill.keys }, `point ${point}: recovery at start-up`);
      checkBooks(dbFile, books, deliveredKeys, point);

      const burst = Array.from({ length: REQUESTS_PER_BURST }, () => {
        const account = accounts[Math.floor(random() * accounts.length)]!;
        const replayOf = deliveredKeys.length > 0 && random() < 0.15 ? deliveredKeys[Math.floor(random() * deliveredKeys.length)] : undefined;
        if (replayOf) return { account: replayOf.account, markdown: replayOf.markdown, key: replayOf.key, replay: true };
        const markdown = DOCUMENTS[Math.floor(random() * DOCUMENTS.length)]!;
        const key = random() < 0.5 ? `kill-${SEED}-${(keyCounter += 1)}` : undefined;
        return { account, markdown, key, replay: false };
      });
      const answers = Promise.allSettled(burst.map((request) => send(service.url, request.account, request.markdown, request.key)));
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * LONGEST_WAIT_MS)));
      await service.kill();
      await new Promise((resolve) => setTimeout(resolve, LEASE_S * 1000 + 50));

      for (const [index, settled] of (await answers).entries()) {
        const request = burst[index]!;
        const accountBooks = books.get(request.account.id)!;
        if (settled.status === 'rejected') {
          if (!request.replay) accountBooks.cut += 1;
        } else if (settled.value.status === 200 && !settled.value.replay) {
          assert.equal(request.replay, false, 'a replay is never a fresh delivery');
          accountBooks.delivered += 1;
          if (request.key) deliveredKeys.push({ account: request.account, key: request.key, markdown: request.markdown });
        }
      }
      openAtKill = openRecords(dbFile);
    }
    const totals = [...books.values()].reduce((sum, next) => ({ delivered: sum.delivered + next.delivered, cut: sum.cut + next.cut }));
    console.log(`kill -9 figures: ${JSON.stringify({ kills: POINTS, ...totals, seed: SEED })}`);
    assert.ok(totals.delivered > 0, 'renders were delivered between the kills');
    assert.ok(totals.cut > 0, 'kills cut renders off');
  });
});

async function send(url: string, account: SuiteAccount, markdown: string, key: string | undefined): Promise<{ status: number; replay: boolean }> {
  const response = await fetch(`${url}/v1/render`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'text/markdown', ...(key && { 'Idempotency-Key': key }) },
    body: markdown,
  });
  await response.arrayBuffer(); // a kill while the PDF streams rejects here: cut off
  return { status: response.status, replay: response.headers.get('x-service-replay') === 'true' };
}

function checkBooks(dbFile: string, books: Map<string, Books>, deliveredKeys: { key: string; account: SuiteAccount }[], point: number): void {
  const db = new Database(dbFile, { readonly: true });
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok', `point ${point}: integrity_check`);
    assert.deepEqual(db.pragma('foreign_key_check'), [], `point ${point}: foreign_key_check`);
    const open = db.prepare(`SELECT COUNT(*) AS n FROM reservations WHERE state = 'reserved'`).get() as { n: number };
    assert.equal(open.n, 0, `point ${point}: open reservations returned at start-up`);
    const inProgress = db.prepare(`SELECT COUNT(*) AS n FROM idempotency_keys WHERE state = 'in_progress'`).get() as { n: number };
    assert.equal(inProgress.n, 0, `point ${point}: keys in progress released at start-up`);
    const unrecorded = db.prepare(`SELECT COUNT(*) AS n FROM reservations WHERE state = 'charged' AND (pages IS NULL OR settled_at IS NULL)`).get() as {
      n: number;
    };
    assert.equal(unrecorded.n, 0, `point ${point}: every charge has its delivery record`);
    const periods = db
      .prepare(
        `SELECT p.id, p.account_id, p.used, p.reserved, (SELECT COUNT(*) FROM reservations r WHERE r.period_id = p.id AND r.state = 'charged') AS charged
         FROM periods p`,
      )
      .all() as { account_id: string; used: number; reserved: number; charged: number }[];
    for (const period of periods) {
      assert.equal(period.used, period.charged, `point ${point}: period counter agrees with its charged rows`);
      assert.equal(period.reserved, 0, `point ${point}: nothing reserved after start-up`);
      const accountBooks = books.get(period.account_id)!;
      assert.ok(period.charged >= accountBooks.delivered, `point ${point}: every received PDF is charged (${period.charged} < ${accountBooks.delivered})`);
      assert.ok(
        period.charged - accountBooks.delivered <= accountBooks.cut,
        `point ${point}: charged ${period.charged}, delivered ${accountBooks.delivered}, cut off ${accountBooks.cut}`,
      );
    }
    const state = db.prepare('SELECT state FROM idempotency_keys WHERE account_id = ? AND idem_key = ?');
    for (const { account, key } of deliveredKeys) {
      assert.equal((state.get(account.id, key) as { state: string } | undefined)?.state, 'completed', `point ${point}: delivered key ${key} completed`);
    }
  } finally {
    db.close();
  }
}

/** What the kill left open, to be returned and released at the next start. */
function openRecords(dbFile: string): { reservations: number; keys: number } {
  const db = new Database(dbFile, { readonly: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      reservations: count(`SELECT COUNT(*) AS n FROM reservations WHERE state = 'reserved'`),
      keys: count(`SELECT COUNT(*) AS n FROM idempotency_keys WHERE state = 'in_progress'`),
    };
  } finally {
    db.close();
  }
}
