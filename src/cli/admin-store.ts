/** Opening the service's database for one administrative command. */
import { includedDocuments } from '../limits/plans.js';
import { systemClock } from '../clock.js';
import { describeLocation, openStore, storeLocation, StoreSettingError, type StoreLocation, type StoreOptions } from '../store/open-store.js';
import { DuplicateCertificateError, DuplicateEmailError, StoreUnavailableError, UnknownRecordError, type Store } from '../store/store.js';
import { CliError } from './cli-error.js';

/**
 * `--db`, else QUIRE_DB_URL, else QUIRE_DB, else data/quire.db (relative to the working
 * directory). A URL of another scheme than postgres:// is refused before anything is opened.
 */
export function databaseLocation(flag: string | undefined): StoreLocation {
  try {
    return storeLocation(flag, process.env);
  } catch (error) {
    throw error instanceof StoreSettingError ? new CliError(error.message) : error;
  }
}

/** Opens the store with the plans' period policy; a database that cannot be reached or opened is a one-line error naming it (never its password). */
export async function openDatabase(location: StoreLocation, options: Omit<StoreOptions, 'included'>): Promise<Store> {
  try {
    return await openStore(location, systemClock, { included: includedDocuments, ...options });
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw new CliError(`cannot open the database ${describeLocation(location)} (${error.message})`, 1);
    throw error;
  }
}

/** Runs `work` against the database and closes it; unknown records and duplicates become CLI errors. */
export async function withStore<T>(dbFlag: string | undefined, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openDatabase(databaseLocation(dbFlag), { poolSize: 2 });
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
