/**
 * A fresh PostgreSQL database for one test file, on the server named by QUIRE_TEST_POSTGRES
 * (default: the local server on loopback, as `.ci/run` starts it), dropped when the file ends.
 * Without a server the tests that need one fail: PostgreSQL is a real component of the suite.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const SERVER = process.env.QUIRE_TEST_POSTGRES || 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  /** Runs one statement in the database (a test's look at the rows). */
  query<Row extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<Row[]>;
  /** The database goes away for its clients: open connections are ended and new ones refused. */
  cutOff(): Promise<void>;
  restore(): Promise<void>;
  drop(): Promise<void>;
}

export async function freshDatabase(label: string): Promise<TestDatabase> {
  const name = `quire_test_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const reader = new pg.Pool({ connectionString: url.toString(), max: 2 });
  reader.on('error', () => {});
  return {
    url: url.toString(),
    query: async (sql, values) => (await reader.query(sql, values)).rows,
    cutOff: () =>
      onServer(async (client) => {
        await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      }),
    restore: () => onServer((client) => client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)),
    async drop() {
      await reader.end();
      await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function onServer(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
