/**
 * The PostgreSQL connection pool and the three ways the store talks through it: one statement,
 * a transaction, and the migrations under an advisory lock. Every driver failure — refused
 * connection, lost socket, timeout, server error — becomes StoreUnavailableError, so the service
 * answers 503 `quota_unavailable` and counts nothing, as with SQLite.
 */
import pg from 'pg';
import { MIGRATIONS } from '../migrations.js';
import { StoreUnavailableError } from '../store.js';

export interface PoolSettings {
  url: string;
  /** Connections per instance. */
  size: number;
}

/** BIGINT (int8) columns hold milliseconds, counts and row ids: all far inside 2^53. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The store's transactions send their statements back to back; one left idle this long belongs
 * to an instance that stalled (stopped, starved) holding row locks — a reservation being
 * renewed, say — that would hold up every other instance's recovery and claims until it woke.
 * The server ends such a session, its locks go, and the stalled instance's transaction fails.
 */
export const STALLED_TRANSACTION_MS = 5_000;

export function openPool(settings: PoolSettings, onIdleError: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.size,
    types,
    connectionTimeoutMillis: 5_000,
    // A statement the server does not answer in time fails the request rather than holding it.
    query_timeout: 10_000,
    idle_in_transaction_session_timeout: STALLED_TRANSACTION_MS,
    idleTimeoutMillis: 30_000,
    application_name: 'quire',
  });
  // An idle connection the server drops (restart, failover) must not throw out of the pool.
  pool.on('error', onIdleError);
  return pool;
}

/** Named parameters: any object whose keys name them. */
type Values = object;
export type Queryable = pg.Pool | pg.PoolClient;

const numbered = new Map<string, { text: string; names: string[] }>();

/** `@name` parameters (statements.ts) as PostgreSQL's `$1`, `$2`, … */
function toNumbered(sql: string): { text: string; names: string[] } {
  let found = numbered.get(sql);
  if (!found) {
    const names: string[] = [];
    const text = sql.replace(/@([A-Za-z_]\w*)/g, (_, name: string) => {
      const index = names.indexOf(name);
      if (index >= 0) return `$${index + 1}`;
      names.push(name);
      return `$${names.length}`;
    });
    found = { text, names };
    numbered.set(sql, found);
  }
  return found;
}

export async function query<Row extends pg.QueryResultRow>(on: Queryable, sql: string, values: Values = {}): Promise<pg.QueryResult<Row>> {
  const { text, names } = toNumbered(sql);
  try {
    return await on.query<Row>(
      text,
      names.map((name) => (values as Record<string, unknown>)[name] ?? null),
    );
  } catch (error) {
    throw unavailable(error);
  }
}

export async function one<Row extends pg.QueryResultRow>(on: Queryable, sql: string, values?: Values): Promise<Row | undefined> {
  return (await query<Row>(on, sql, values)).rows[0];
}

/**
 * Runs `work` between BEGIN and COMMIT on one connection; any failure rolls back and is rethrown.
 * `durable: false` commits without waiting for the disk (see the stores' notes on what may).
 */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, options: { durable?: boolean } = {}): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw unavailable(error);
  }
  let broken: unknown;
  // A connection the server ends while it is checked out (between statements) says so with an
  // 'error' event, which would end the process if nobody listened; the next statement fails too.
  const noteBroken = (error: Error) => (broken = error);
  client.on('error', noteBroken);
  try {
    await query(client, options.durable === false ? 'BEGIN; SET LOCAL synchronous_commit = off' : 'BEGIN');
    const result = await work(client);
    await query(client, 'COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
    throw error;
  } finally {
    client.off('error', noteBroken);
    // A connection that broke, or whose rollback failed, is in an unknown state: the pool closes it.
    client.release(broken instanceof Error ? broken : undefined);
  }
}

/** Any instance may start first, several at once: the advisory lock lets one apply each migration. */
const MIGRATION_LOCK = 7_130_612_026;

export async function migrate(pool: pg.Pool): Promise<void> {
  await transaction(pool, async (client) => {
    await query(client, `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await query(client, 'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const applied = (await one<{ version: number }>(client, 'SELECT max(version) AS version FROM schema_version'))?.version ?? 0;
    for (const [index, migration] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (version <= applied) continue;
      await query(client, migration.postgres);
      await query(client, 'INSERT INTO schema_version (version) VALUES (@version)', { version });
    }
  });
}

function unavailable(error: unknown): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  const code = (error as { code?: unknown }).code;
  return new StoreUnavailableError(typeof code === 'string' ? `postgres: ${code}` : `postgres: ${(error as Error).message}`);
}
