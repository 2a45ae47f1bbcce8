import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../store.js';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/**
 * Opens (creating on first use) the database file and brings its schema up to date.
 *
 * WAL lets the admin CLI and readers work beside the service. `synchronous=FULL`: every commit
 * is on disk before the service answers, so a charge or an issued key survives a power cut, not
 * only a crash (NORMAL would lose the last commits then); the cost is one fsync per commit.
 */
export function openDatabase(file: string, busyTimeoutMs: number): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // How long a write waits for another connection's lock (the admin CLI's, say) before failing.
  const db = new Database(file, { timeout: busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // Truncate the WAL file after checkpoints so it cannot keep the size of its largest burst.
  db.pragma('journal_size_limit = 67108864');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const applied = db.pragma('user_version', { simple: true }) as number;
  MIGRATIONS.forEach((sql, index) => {
    const version = index + 1;
    if (version <= applied) return;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
    }).immediate();
  });
}

/**
 * Runs `work` in a BEGIN IMMEDIATE transaction: the write lock is taken up front, so a
 * read-modify-write of a counter waits for other writers instead of failing half-way.
 */
export function immediate<T>(db: Db, work: () => T): T {
  return guard(() => db.transaction(work).immediate());
}

/** Database failures become StoreUnavailableError; the caller's own errors pass through. */
export function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof Database.SqliteError) throw new StoreUnavailableError(error.code);
    throw error;
  }
}
