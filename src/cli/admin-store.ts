/** Opening the service's database for one administrative command. */
import { systemClock } from '../clock.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { DuplicateCertificateError, DuplicateEmailError, UnknownRecordError, type Store } from '../store/store.js';
import { CliError } from './cli-error.js';

export const DEFAULT_DB = 'data/quire.db';

/** `scheme://`: a database URL, which SQLite would otherwise take for a relative file name. */
const DATABASE_URL = /^([a-z][a-z0-9+.-]*):\/\//i;

/**
 * `--db`, else QUIRE_DB, else data/quire.db (relative to the working directory). A URL is refused
 * before anything is opened or created; the message names its scheme only, as the rest may hold a
 * password.
 */
export function databasePath(flag: string | undefined): string {
  const file = flag ?? (process.env.QUIRE_DB || DEFAULT_DB);
  const scheme = DATABASE_URL.exec(file)?.[1];
  if (scheme !== undefined) {
    const source = flag === undefined ? 'QUIRE_DB' : '--db';
    throw new CliError(`${source} is a ${scheme}:// URL: only SQLite database file paths are supported`);
  }
  return file;
}

/** Runs `work` against the database and closes it; unknown records and duplicates become CLI errors. */
export async function withStore<T>(dbFlag: string | undefined, work: (store: Store) => Promise<T>): Promise<T> {
  const store = SqliteStore.open(databasePath(dbFlag), systemClock);
  try {
    return await work(store);
  } catch (error) {
    if (error instanceof UnknownRecordError || error instanceof DuplicateEmailError || error instanceof DuplicateCertificateError) {
      throw new CliError(error.message, 1);
    }
    throw error;
  } finally {
    await store.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
