/**
 * The PostgreSQL connection as the server drops it: a connection ended while a transaction holds
 * it (between statements) fails that transaction as "store unavailable" and never ends the
 * process, and the pool goes on with a fresh connection. A transaction left idle by a stalled
 * instance is ended by the server, so its locks do not hold up the others.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { one, openPool, query, STALLED_TRANSACTION_MS, transaction } from '../../../src/store/postgres/connection.js';
import { StoreUnavailableError } from '../../../src/store/store.js';
import { freshDatabase } from '../../support/postgres.js';

const database = await freshDatabase('connection');
const pool = openPool({ url: database.url, size: 2 }, () => undefined);

describe('PostgreSQL connections the server ends', () => {
  after(async () => {
    await pool.end();
    await database.drop();
  });

  it('should fail the transaction as store unavailable, keep the process, and serve the next one', async () => {
    await assert.rejects(
      transaction(pool, async (client) => {
        const { pid } = (await one<{ pid: number }>(client, 'SELECT pg_backend_pid() AS pid'))!;
        await database.query('SELECT pg_terminate_backend($1)', [pid]);
        // The server's goodbye arrives while no statement runs: an 'error' event on the client.
        await sleep(200);
        await query(client, 'SELECT 1');
      }),
      StoreUnavailableError,
    );
    assert.equal((await one<{ n: number }>(pool, 'SELECT 1 AS n'))?.n, 1);
  });

  it("should end a stalled instance's idle transaction, freeing its locks for the others", async () => {
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const stalled = transaction(pool, async (client) => {
      await query(client, 'SELECT pg_advisory_xact_lock(7)');
      locked();
      // Stalled between two statements, its lock held, for longer than the server allows.
      await sleep(STALLED_TRANSACTION_MS + 2_000);
      await query(client, 'SELECT 1');
    });
    await holding;
    const started = Date.now();
    await transaction(pool, (client) => query(client, 'SELECT pg_advisory_xact_lock(7)'));
    const waitedMs = Date.now() - started;
    assert.ok(waitedMs < STALLED_TRANSACTION_MS + 1_500, `the lock came free after ${waitedMs} ms`);
    await assert.rejects(stalled, StoreUnavailableError);
    assert.equal((await one<{ n: number }>(pool, 'SELECT 1 AS n'))?.n, 1);
  });
});
