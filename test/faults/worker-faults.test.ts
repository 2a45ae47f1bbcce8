/**
 * Render workers that crash, spin, block in a system call or run out of heap, in the middle of
 * ordinary renders: each faulty request gets its documented error, the pool replaces the worker,
 * and every other render finishes.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createAccounts, type SuiteAccount } from '../hostile/support/accounts.js';
import { bySuite } from '../hostile/support/suite-mode.js';
import { startInProcess, type InProcessService } from './support/in-process.js';

const ROUNDS = bySuite(1, 5);

describe('render workers failing among ordinary renders', () => {
  let service: InProcessService;
  let account: SuiteAccount;
  const fifos: string[] = [];

  before(async () => {
    service = await startInProcess({ workers: 2, workerMemoryMb: 128 });
    [account] = (await createAccounts(service.dbFile, [{ plan: 'scale', overrides: { requests_per_min: 100_000, concurrency: 100, timeout_s: 8 } }])) as [
      SuiteAccount,
    ];
  });

  after(async () => {
    // A writer lets a blocked read return, so its stuck thread can end with the process.
    for (const fifo of fifos) {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader left on this FIFO.
      }
    }
    await service.close();
  });

  for (let round = 1; round <= ROUNDS; round += 1) {
    it(`should fail only the faulty renders and finish the others (round ${round} of ${ROUNDS})`, async () => {
      const fifo = path.join(service.dir, `fifo-${round}`);
      execFileSync('mkfifo', [fifo]);
      fifos.push(fifo);
      const faults = {
        crash: { status: 500, code: 'render_failed' },
        busy: { status: 422, code: 'render_timeout' },
        [`block:${fifo}`]: { status: 422, code: 'render_timeout' },
        heap: { status: 413, code: 'payload_too_large', renderer_bound: 'OutOfMemory' },
      } as Record<string, { status: number; code: string; renderer_bound?: string }>;
      const ordinary = Array.from({ length: 12 }, (_, n) => `# Ordinary ${round}.${n}\n\n${'Some words to set. '.repeat(40)}`);
      const documents = [...ordinary.slice(0, 6), ...Object.keys(faults), ...ordinary.slice(6)];

      const answers = await Promise.all(documents.map((markdown) => send(service, account, markdown)));
      for (const [index, markdown] of documents.entries()) {
        const wanted = faults[markdown];
        const answer = answers[index]!;
        if (wanted) assert.deepEqual(answer, wanted, `the answer to "${markdown}"`);
        else assert.deepEqual(answer, { status: 200 }, `the answer to "${markdown.slice(0, 20)}"`);
      }
      // The pool has replaced the workers it lost: the next renders need all of them.
      const next = await Promise.all(ordinary.slice(0, 4).map((markdown) => send(service, account, markdown)));
      assert.deepEqual(next, Array(4).fill({ status: 200 }));
      assert.deepEqual(ledger(service.dbFile, account.id), {
        charged: 16 * round,
        returned: Object.keys(faults).length * round,
        reserved: 0,
      });
    });
  }
});

async function send(service: InProcessService, account: SuiteAccount, markdown: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.url}/v1/render`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'text/markdown' },
    body: markdown,
  });
  if (response.status === 200) {
    await response.arrayBuffer();
    return { status: 200 };
  }
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, code: body.code, ...(body.renderer_bound !== undefined && { renderer_bound: body.renderer_bound }) };
}

function ledger(dbFile: string, accountId: string): { charged: number; returned: number; reserved: number } {
  const db = new Database(dbFile, { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT r.state, COUNT(*) AS n FROM reservations r JOIN periods p ON p.id = r.period_id WHERE p.account_id = ? GROUP BY r.state`)
      .all(accountId) as { state: string; n: number }[];
    const count = (state: string) => rows.find((row) => row.state === state)?.n ?? 0;
    return { charged: count('charged'), returned: count('returned'), reserved: count('reserved') };
  } finally {
    db.close();
  }
}
