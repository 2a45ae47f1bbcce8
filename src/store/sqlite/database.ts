import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../store.js';
import { MIGRATIONS } from '../migrations.js';

export type Db = Database.Database;

/**
 * Opens (creating on first use) the database file and brings its schema up to date.
 *
 * WAL lets the admin CLI and readers work beside the service. `synchronous=FULL`: every commit
 * is on disk before the service answers, so a charge or an issued key survives a power cut, not
 * only a crash (NORMAL would lose the last commits then); the cost is one fsync per commit.
 */
export function openDatabase(file: string, busyTimeoutMs: number): Db {
  if (file !== ':memory:') prepareOwnerOnly(file);
  // How long a write waits for another connection's lock (the admin CLI's, say) before failing.
  const db = new Database(file, { timeout: busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // Truncate the WAL file after checkpoints so it cannot keep the size of its largest burst.
  db.pragma('journal_size_limit = 67108864');
  migrate(db);
  keepStatements(db);
  return db;
}

/**
 * Each SQL text is prepared once and its statement kept: preparing costs more than running most
 * of the small statements a request makes (a tenth of the service's main thread under load).
 * The texts are the store's own constants, so the cache stays the size of the store's SQL; no
 * caller changes a statement's mode (pluck, raw), which a shared statement would keep.
 */
function keepStatements(db: Db): void {
  const prepared = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    let statement = prepared.get(source);
    if (statement === undefined) {
      statement = prepare(source);
      prepared.set(source, statement);
    }
    return statement;
  }) as Db['prepare'];
}

/** Files SQLite keeps beside the database while it is open (WAL) or in a transaction (rollback journal). */
const COMPANIONS = ['-wal', '-shm', '-journal'];
const OWNER_ONLY = 0o600;

/**
 * The database holds emails, key hashes and the fingerprint secret: readable by its owner only,
 * whatever the umask. SQLite creates the database with 0644 less the umask, but each companion
 * file — whenever it creates one, now or after a restart — with the database file's own mode. So
 * the database file is made 0600 before SQLite opens it, and no companion can come out wider;
 * companions left by an earlier version are narrowed too. A new folder is the owner's alone.
 */
function prepareOwnerOnly(file: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', OWNER_ONLY));
  for (const suffix of ['', ...COMPANIONS]) {
    const mode = fileMode(file + suffix);
    if (mode !== undefined && mode !== OWNER_ONLY) chmodSync(file + suffix, OWNER_ONLY);
  }
}

function fileMode(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function migrate(db: Db): void {
  const applied = db.pragma('user_version', { simple: true }) as number;
  MIGRATIONS.forEach((migration, index) => {
    const version = index + 1;
    if (version <= applied) return;
    db.transaction(() => {
      db.exec(migration.sqlite);
      db.pragma(`user_version = ${version}`);
    }).immediate();
  });
}

/**
 * Runs `work` in a BEGIN IMMEDIATE transaction: the write lock is taken up front, so a
 * read-modify-write of a counter waits for other writers instead of failing half-way.
 * `durable: false` commits without waiting for the disk, for writes a power cut may lose
 * harmlessly (a later durable commit carries them to disk with it).
 */
export function immediate<T>(db: Db, work: () => T, options: { durable?: boolean } = {}): T {
  if (options.durable !== false) return guard(() => db.transaction(work).immediate());
  return guard(() => {
    db.prepare('PRAGMA synchronous = NORMAL').run();
    try {
      return db.transaction(work).immediate();
    } finally {
      db.prepare('PRAGMA synchronous = FULL').run();
    }
  });
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
