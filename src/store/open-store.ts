/**
 * Which store a process uses: `--db`, else QUIRE_DB_URL, else QUIRE_DB, else data/quire.db. A
 * `postgres://` (or `postgresql://`) URL selects PostgreSQL, shared by any number of instances;
 * anything else is a SQLite file, the embedded default that needs no server.
 */
import type { Clock } from '../clock.js';
import type { IncludedDocuments } from '../plan-terms.js';
import { DEFAULT_LEASE_MS, newLeaseHolder, type LeaseHolder } from './leases.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export const DEFAULT_DB = 'data/quire.db';
const DEFAULT_POOL_SIZE = 10;

export type StoreLocation = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** A setting the operator got wrong, named with where it came from. */
export class StoreSettingError extends Error {}

/** `scheme://`: a database URL, which SQLite would otherwise take for a relative file name. */
const DATABASE_URL = /^([a-z][a-z0-9+.-]*):\/\//i;

export function storeLocation(flag: string | undefined, env: NodeJS.ProcessEnv): StoreLocation {
  const [source, value] =
    flag !== undefined ? ['--db', flag] : env.QUIRE_DB_URL ? ['QUIRE_DB_URL', env.QUIRE_DB_URL] : ['QUIRE_DB', env.QUIRE_DB || DEFAULT_DB];
  const scheme = DATABASE_URL.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'sqlite', file: value };
  if (scheme === 'postgres' || scheme === 'postgresql') return { kind: 'postgres', url: value };
  // Named by its scheme only: the rest may hold a password.
  throw new StoreSettingError(`${source} is a ${scheme}:// URL: use a postgres:// URL or a SQLite database file path`);
}

/** For logs: the file, or the URL without its password. */
export function describeLocation(location: StoreLocation): string {
  if (location.kind === 'sqlite') return location.file;
  const url = new URL(location.url);
  if (url.password) url.password = '***';
  return url.toString();
}

export interface StoreOptions {
  /** The period policy: how many documents a period includes (the service passes its plans'). */
  included: IncludedDocuments;
  holder?: LeaseHolder;
  /** PostgreSQL connections per instance (QUIRE_DB_POOL). */
  poolSize?: number;
  onIdleError?: (error: Error) => void;
}

export async function openStore(location: StoreLocation, clock: Clock, options: StoreOptions): Promise<Store> {
  if (location.kind === 'sqlite')
    return SqliteStore.open(location.file, clock, { included: options.included, ...(options.holder && { holder: options.holder }) });
  return PostgresStore.open({ url: location.url, size: options.poolSize ?? DEFAULT_POOL_SIZE }, clock, options);
}

/** QUIRE_DB_POOL and QUIRE_LEASE_S from the environment. */
export function storeOptionsFromEnv(env: NodeJS.ProcessEnv): Required<Pick<StoreOptions, 'holder' | 'poolSize'>> {
  return {
    poolSize: positiveWhole(env, 'QUIRE_DB_POOL', DEFAULT_POOL_SIZE),
    holder: newLeaseHolder(positiveNumber(env, 'QUIRE_LEASE_S', DEFAULT_LEASE_MS / 1000) * 1000),
  };
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new StoreSettingError(`${name} must be a positive number`);
  return value;
}

function positiveWhole(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = positiveNumber(env, name, fallback);
  if (!Number.isInteger(value)) throw new StoreSettingError(`${name} must be a whole number`);
  return value;
}
