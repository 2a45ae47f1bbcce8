/**
 * Test harness: the real service over a real socket on loopback, with a real SQLite file in a
 * temporary folder and a clock the test moves by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Clock } from '../../src/clock.js';
import { defaultDeployment, type Deployment } from '../../src/config/deployment.js';
import { createApp } from '../../src/http/app.js';
import { startServer, type RequestTimers } from '../../src/http/server.js';
import type { LimitOverrides, PlanId } from '../../src/plan-terms.js';
import type { Log } from '../../src/log.js';
import type { NetSettings } from '../../src/net/net-settings.js';
import type { Uploader } from '../../src/net/uploader.js';
import type { Sealer } from '../../src/seal/sealer.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { RenderPool } from '../../src/workers/pool.js';
import { includedDocuments } from '../../src/limits/plans.js';

export class ManualClock implements Clock {
  constructor(private time = Date.UTC(2025, 0, 15, 12, 0, 0)) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
  set(time: number): void {
    this.time = time;
  }
}

/**
 * The time of day, for a service that shares its database with a process of its own (`quire
 * mcp`): a clock held still would have that process's lease upkeep take the service's leases for
 * expired ones.
 */
export class WallClock extends ManualClock {
  override now(): number {
    return Date.now();
  }
}

export interface ServiceOptions {
  clock?: ManualClock;
  deployment?: Partial<Deployment>;
  /** Run workers on the stand-in engine (hang / crash / out of memory on demand). */
  standIn?: boolean;
  sealer?: Sealer;
  uploader?: Uploader;
  /** Node's request timers, shortened to see them fire. */
  timers?: RequestTimers;
  /** Outbound rules for linked images; without, the workers load none (data: URIs always work). */
  net?: NetSettings;
  /** A PostgreSQL database URL to keep the service's records in, instead of a SQLite file. */
  postgres?: string;
}

export interface TestService {
  url: string;
  store: Store;
  clock: ManualClock;
  /** The SQLite file, or the PostgreSQL URL the service keeps its records in (as `--db` takes it). */
  dbFile: string;
  dir: string;
  logs: Record<string, unknown>[];
  /** Graceful shutdown of the HTTP server and its workers, as on SIGTERM. */
  shutdown(graceMs: number): Promise<void>;
  close(): Promise<void>;
}

export const STAND_IN_ENGINE = new URL('./service-fixtures/stand-in-engine.js', import.meta.url);

export async function startService(options: ServiceOptions = {}): Promise<TestService> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-service-'));
  const dbFile = options.postgres ?? path.join(dir, 'quire.db');
  const clock = options.clock ?? new ManualClock();
  const store = options.postgres
    ? await PostgresStore.open({ url: options.postgres, size: 4 }, clock, { included: includedDocuments })
    : SqliteStore.open(dbFile, clock, { included: includedDocuments, busyTimeoutMs: 200 });
  const config: Deployment = { ...defaultDeployment(), workers: 2, queueLimit: 64, ...options.deployment };
  const logs: Record<string, unknown>[] = [];
  const log: Log = (event) => logs.push(event);
  const pool = new RenderPool({
    size: config.workers,
    queueLimit: config.queueLimit,
    memoryMb: config.workerMemoryMb,
    log,
    ...(options.standIn && { engineModule: STAND_IN_ENGINE }),
    ...(options.net && { net: options.net }),
  });
  const app = createApp({
    store,
    clock,
    pool,
    config,
    log,
    ...(options.sealer && { sealer: options.sealer }),
    ...(options.uploader && { uploader: options.uploader }),
  });
  // As `quire serve` without an operator port: the operator paths on this port, which listens while it drains.
  const server = await startServer(app, pool, {
    port: 0,
    hostname: '127.0.0.1',
    log,
    listenWhileDraining: true,
    ...(options.timers && { timers: options.timers }),
  });
  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${server.port}`,
    store,
    clock,
    dbFile,
    dir,
    logs,
    shutdown: (graceMs) => (stopped ??= server.close(graceMs)),
    async close() {
      await (stopped ??= server.close(0));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestAccount {
  id: string;
  key: string;
  keyId: string;
}

/** A verified account with one key; generous request and concurrency limits unless the test sets them. */
export async function createAccount(store: Store, options: { plan?: PlanId; overrides?: LimitOverrides; emailVerified?: boolean } = {}): Promise<TestAccount> {
  const account = await store.createAccount({
    email: `user-${Math.random().toString(36).slice(2)}@example.com`,
    plan: options.plan ?? 'starter',
    emailVerified: options.emailVerified ?? true,
  });
  await store.updateAccount(account.id, { overrides: { requests_per_min: 10_000, concurrency: 100, ...options.overrides } });
  const { id, key } = await store.createApiKey(account.id, 'test key');
  return { id: account.id, key, keyId: id };
}

export function render(service: TestService, key: string | undefined, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const isJson = typeof body !== 'string';
  return fetch(`${service.url}/v1/render`, {
    method: 'POST',
    headers: {
      ...(key !== undefined && { Authorization: `Bearer ${key}` }),
      ...(isJson && { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: isJson ? JSON.stringify(body) : body,
  });
}

export async function usage(service: TestService, key: string, query = ''): Promise<Response> {
  return fetch(`${service.url}/v1/usage${query}`, { headers: { Authorization: `Bearer ${key}` } });
}

/** The error body, checked to have exactly the SPEC's shape. */
export async function errorBody(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  if (typeof body.code !== 'string' || typeof body.error !== 'string') {
    throw new Error(`not an error body: ${JSON.stringify(body)}`);
  }
  return body;
}

export interface ReservationRow {
  state: 'reserved' | 'charged' | 'returned';
  error_code: string | null;
  pages: number | null;
}

/** The account's reservation rows, oldest first, read from the database file on a second connection. */
export function reservations(service: TestService, accountId: string): ReservationRow[] {
  const db = new Database(service.dbFile, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT r.state, r.error_code, r.pages FROM reservations r JOIN periods p ON p.id = r.period_id
         WHERE p.account_id = ? ORDER BY r.id`,
      )
      .all(accountId) as ReservationRow[];
  } finally {
    db.close();
  }
}

/** How many periods the account has opened (reading usage must never open one). */
export function periodCount(service: TestService, accountId: string): number {
  const db = new Database(service.dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM periods WHERE account_id = ?').get(accountId) as { n: number }).n;
  } finally {
    db.close();
  }
}
