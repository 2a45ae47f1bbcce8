/** Opening the service's database for one administrative command. */
import { systemClock } from '../clock.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { DuplicateCertificateError, DuplicateEmailError, UnknownRecordError, type Store } from '../store/store.js';
import { CliError } from './cli-error.js';

export const DEFAULT_DB = 'data/quire.db';

/** `--db`, else QUIRE_DB, else data/quire.db (relative to the working directory). */
export function databasePath(flag: string | undefined): string {
  return flag ?? (process.env.QUIRE_DB || DEFAULT_DB);
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
