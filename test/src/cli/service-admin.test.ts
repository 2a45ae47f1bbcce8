/** The admin commands and `quire serve`, run as the installed command would be. */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { systemClock } from '../../../src/clock.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { includedDocuments } from '../../../src/limits/plans.js';

const BIN = fileURLToPath(new URL('../../../../bin/quire.cjs', import.meta.url));

describe('quire admin commands', () => {
  let dir: string;
  let db: string;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'quire-cli-'));
    db = path.join(dir, 'nested', 'quire.db');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function quire(args: string[], env: Record<string, string> = {}) {
    const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, json: () => JSON.parse(result.stdout) };
  }

  async function withStore<T>(work: (store: SqliteStore) => Promise<T>): Promise<T> {
    const store = SqliteStore.open(db, systemClock, { included: includedDocuments });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  }

  it('should create the database on first use and an account with a key shown once', async () => {
    const created = quire(['account', 'create', '--email', 'ada@example.com', '--plan', 'pro', '--db', db]);
    assert.equal(created.status, 0, created.stderr);
    const output = created.json();
    assert.deepEqual(Object.keys(output).sort(), ['account', 'key']);
    const principal = await withStore((store) => store.authenticate(output.key));
    assert.equal(principal?.account.id, output.account);
    assert.equal(principal?.account.plan, 'pro');
    assert.equal(principal?.account.emailVerified, true);
    // Only a hash of the key is stored.
    const raw = new Database(db, { readonly: true });
    const stored = raw.prepare('SELECT key_hash FROM api_keys').all() as { key_hash: string }[];
    raw.close();
    assert.ok(stored.every((row) => row.key_hash !== output.key && !row.key_hash.includes(output.key)));
  });

  it('should refuse a second account with the same email, and bad flags, on stderr with a non-zero exit', () => {
    const duplicate = quire(['account', 'create', '--email', 'ADA@example.com', '--db', db]);
    assert.equal(duplicate.status, 1);
    assert.match(duplicate.stderr, /exists/);
    assert.equal(quire(['account', 'create', '--email', 'b@example.com', '--plan', 'gold', '--db', db]).status, 2);
    assert.equal(quire(['account', 'create', '--db', db]).status, 2);
    assert.equal(quire(['account', 'set', 'acct_nope', '--plan', 'pro', '--db', db]).status, 1);
    assert.equal(quire(['account', 'set', 'acct_nope', '--limit', 'speed=9', '--db', db]).status, 2);
    assert.equal(quire(['account', 'set', 'acct_nope', '--blocked', 'maybe', '--db', db]).status, 2);
  });

  it('should create an unverified account and change it with account set', async () => {
    const { account } = quire(['account', 'create', '--email', 'grace@example.com', '--unverified', '--db', db]).json();
    assert.equal((await withStore((store) => store.getAccount(account))).emailVerified, false);
    const set = quire([
      'account',
      'set',
      account,
      '--plan',
      'scale',
      '--blocked',
      'true',
      '--email-verified',
      'true',
      '--limit',
      'documents=3',
      '--limit',
      'requests_per_min=1000',
      '--db',
      db,
    ]);
    assert.equal(set.status, 0, set.stderr);
    const output = set.json();
    assert.equal(output.plan, 'scale');
    assert.equal(output.blocked, true);
    assert.equal(output.email_verified, true);
    assert.deepEqual(output.overrides, { documents: 3, requests_per_min: 1000 });
    assert.equal(output.limits.documents, 3);
    assert.equal(output.limits.requests_per_min, 1000);
    assert.equal(output.limits.pages_max, 2048);
    const usage = await withStore((store) => store.usage(account));
    assert.equal(usage?.period.plan, 'scale');
    assert.equal(usage?.period.included, 3);
  });

  it('should create and revoke keys, and grant documents', async () => {
    const { account } = quire(['account', 'create', '--email', 'keys@example.com', '--db', db]).json();
    const created = quire(['key', 'create', account, '--name', 'ci', '--db', db]).json();
    assert.match(created.id, /^key_/);
    assert.ok(await withStore((store) => store.authenticate(created.key)));
    assert.deepEqual(quire(['key', 'revoke', created.id, '--db', db]).json(), { id: created.id, revoked: true });
    assert.equal(await withStore((store) => store.authenticate(created.key)), undefined);
    assert.equal(quire(['key', 'revoke', 'key_unknown', '--db', db]).status, 1);

    const granted = quire(['grant', account, '--documents', '5', '--db', db]);
    assert.equal(granted.status, 0, granted.stderr);
    assert.equal(granted.json().credits_granted, 5);
    assert.equal(quire(['grant', account, '--documents', '-1', '--db', db]).status, 2);
  });

  it('should read the database path from QUIRE_DB', async () => {
    const other = path.join(dir, 'from-env.db');
    const created = quire(['account', 'create', '--email', 'env@example.com'], { QUIRE_DB: other });
    assert.equal(created.status, 0, created.stderr);
    const store = SqliteStore.open(other, systemClock, { included: includedDocuments });
    assert.ok(await store.authenticate(created.json().key));
    await store.close();
  });
});

describe('quire serve', () => {
  it('should refuse a database URL of another kind, and an unreachable PostgreSQL, naming the problem but never the password, with no file created', () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'quire-db-url-'));
    try {
      const other = 'mysql://quire:s3cret@db.example.com:3306/quire';
      // Port 1 of loopback: refused at once, and no connection ever leaves the machine.
      const unreachable = 'postgres://quire:s3cret@127.0.0.1:1/quire';
      const env = { ...process.env, QUIRE_MASTER_KEY: '11'.repeat(32) };
      const run = (args: string[], extra: Record<string, string>) =>
        spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...env, ...extra }, timeout: 30_000 });
      for (const [url, message] of [
        [other, /QUIRE_DB is a mysql:\/\/ URL: use a postgres:\/\/ URL or a SQLite database file path|--db is a mysql:\/\/ URL/],
        [unreachable, /cannot open the database postgres:\/\/quire:\*\*\*@127\.0\.0\.1:1\/quire \(postgres: ECONNREFUSED\)/],
      ] as const) {
        const runs = [
          run(['serve', '--port', '0'], { QUIRE_DB: url }),
          run(['mcp'], { QUIRE_DB: url, QUIRE_API_KEY: 'quire_x' }),
          run(['account', 'create', '--email', 'a@example.com', '--db', url], {}),
        ];
        for (const result of runs) {
          assert.notEqual(result.status, 0);
          assert.match(result.stderr, message);
          assert.doesNotMatch(result.stderr, /s3cret|db\.example/);
        }
      }
      assert.deepEqual(readdirSync(cwd), []);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('should serve on PORT and, on SIGTERM, finish the render in flight before exiting', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-serve-'));
    const db = path.join(dir, 'quire.db');
    let server: ChildProcessByStdio<null, null, Readable> | undefined;
    try {
      const store = SqliteStore.open(db, systemClock, { included: includedDocuments });
      const account = await store.createAccount({ email: 'serve@example.com', plan: 'pro', emailVerified: true });
      const { key } = await store.createApiKey(account.id, null);
      await store.close();

      server = spawn(process.execPath, [BIN, 'serve', '--host', '127.0.0.1'], {
        env: { ...process.env, PORT: '0', QUIRE_DB: db, QUIRE_WORKERS: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const child = server;
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const lines: Record<string, unknown>[] = [];
      const port = await new Promise<number>((resolve, reject) => {
        let buffered = '';
        child.stderr.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
            const line = JSON.parse(buffered.slice(0, end)) as Record<string, unknown>;
            buffered = buffered.slice(end + 1);
            lines.push(line);
            if (line.event === 'listening') resolve(line.port as number);
          }
        });
        child.on('exit', () => reject(new Error('the server exited before listening')));
      });
      const url = `http://127.0.0.1:${port}`;
      const report = await fetch(`${url}/v1/usage`, { headers: { Authorization: `Bearer ${key}` } });
      assert.equal(report.status, 200);

      const long = 'A paragraph that keeps the renderer busy for a while.\n\n'.repeat(2000);
      const inFlight = fetch(`${url}/v1/render`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: long });
      let answered = false;
      void inFlight.finally(() => (answered = true));
      // SIGTERM once the render holds a reserved document, i.e. is truly in flight.
      const raw = new Database(db, { readonly: true });
      const reserved = () => raw.prepare(`SELECT 1 FROM reservations WHERE state = 'reserved'`).get() !== undefined;
      while (!answered && !reserved()) await new Promise((r) => setTimeout(r, 5));
      assert.equal(answered, false, 'the render was answered before it could be seen in flight');
      child.kill('SIGTERM');

      const response = await inFlight;
      assert.equal(response.status, 200);
      assert.equal(
        Buffer.from(await response.arrayBuffer())
          .subarray(0, 5)
          .toString(),
        '%PDF-',
      );
      assert.equal(await exited, 0);
      assert.deepEqual(raw.prepare('SELECT state FROM reservations').all(), [{ state: 'charged' }]);
      raw.close();
      assert.ok(lines.some((line) => line.event === 'stopped'));
      await assert.rejects(fetch(`${url}/v1/usage`));
    } finally {
      if (server?.exitCode === null) server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
