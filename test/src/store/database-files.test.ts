/**
 * The database file and the files SQLite keeps beside it are readable by their owner only,
 * whatever the umask of the process that opens them. Each case runs in a child process of its
 * own, since the umask is the whole process's.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

const STORE_MODULE = new URL('../../../src/store/sqlite/sqlite-store.js', import.meta.url).href;
const CLOCK_MODULE = new URL('../../../src/clock.js', import.meta.url).href;
const PLANS_MODULE = new URL('../../../src/limits/plans.js', import.meta.url).href;

/**
 * Opens the store at `file` under `umask`, writes an account (the WAL and its index exist from
 * then on) and reports the mode of every file beside the database while it is still open.
 */
function openUnderUmask(file: string, umask: number): Record<string, string> {
  const script = `
    import { readdirSync, statSync } from 'node:fs';
    import path from 'node:path';
    import { SqliteStore } from ${JSON.stringify(STORE_MODULE)};
    import { systemClock } from ${JSON.stringify(CLOCK_MODULE)};
    import { includedDocuments } from ${JSON.stringify(PLANS_MODULE)};
    process.umask(${umask});
    const file = ${JSON.stringify(file)};
    const store = SqliteStore.open(file, systemClock, { included: includedDocuments });
    await store.createAccount({ email: 'owner-' + process.pid + '@example.com', plan: 'free', emailVerified: true });
    const dir = path.dirname(file);
    const modes = Object.fromEntries(readdirSync(dir).map((name) => [name, (statSync(path.join(dir, name)).mode & 0o777).toString(8)]));
    await store.close();
    process.stdout.write(JSON.stringify(modes));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Record<string, string>;
}

describe('database file permissions', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'quire-db-modes-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const umask of [0o022, 0o000]) {
    it(`should create quire.db, quire.db-wal and quire.db-shm 0600 under umask ${umask.toString(8).padStart(3, '0')}`, () => {
      const file = path.join(dir, `umask-${umask.toString(8)}`, 'quire.db');
      const modes = openUnderUmask(file, umask);
      assert.deepEqual(modes, { 'quire.db': '600', 'quire.db-shm': '600', 'quire.db-wal': '600' });
      assert.equal((statSync(path.dirname(file)).mode & 0o777).toString(8), '700');
    });
  }

  it('should narrow a world-readable database and companions left by an earlier version to 0600', () => {
    const folder = path.join(dir, 'earlier');
    const file = path.join(folder, 'quire.db');
    openUnderUmask(file, 0o022);
    for (const name of ['quire.db', 'quire.db-wal', 'quire.db-shm']) {
      writeFileSync(path.join(folder, name), '', { flag: 'a', mode: 0o644 });
      execFileSync('chmod', ['644', path.join(folder, name)]);
    }
    assert.deepEqual(openUnderUmask(file, 0o000), { 'quire.db': '600', 'quire.db-shm': '600', 'quire.db-wal': '600' });
  });
});
