/**
 * The service in this process — real app, SQLite file and worker pool — for faults a child
 * process cannot be given from outside: workers running the fault engine, and a database
 * connection made to run out of pages.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { systemClock } from '../../../src/clock.js';
import { defaultDeployment } from '../../../src/config/deployment.js';
import { createApp } from '../../../src/http/app.js';
import { startServer } from '../../../src/http/server.js';
import type { Log } from '../../../src/log.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { RenderPool } from '../../../src/workers/pool.js';
import { removeDir, suiteDir } from '../../hostile/support/service-process.js';
import { includedDocuments } from '../../../src/limits/plans.js';

export const FAULT_ENGINE = new URL('./fault-engine.js', import.meta.url);

export interface InProcessService {
  url: string;
  store: SqliteStore;
  dbFile: string;
  dir: string;
  logs: Record<string, unknown>[];
  /** The store's own connection: the test limits its pages to make the disk "full". */
  connection(): Database.Database;
  close(): Promise<void>;
}

export async function startInProcess(options: { workers: number; workerMemoryMb?: number; busyTimeoutMs?: number }): Promise<InProcessService> {
  const dir = suiteDir('faults');
  const dbFile = path.join(dir, 'quire.db');
  const store = SqliteStore.open(dbFile, systemClock, { included: includedDocuments, busyTimeoutMs: options.busyTimeoutMs ?? 300 });
  const logs: Record<string, unknown>[] = [];
  const log: Log = (event) => logs.push(event);
  const config = { ...defaultDeployment(), workers: options.workers, queueLimit: 256 };
  const pool = new RenderPool({ size: options.workers, queueLimit: 256, memoryMb: options.workerMemoryMb ?? 256, log, engineModule: FAULT_ENGINE });
  const server = await startServer(createApp({ store, clock: systemClock, pool, config, log }), pool, { port: 0, hostname: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${server.port}`,
    store,
    dbFile,
    dir,
    logs,
    // A test's reach into the store: SqliteStore keeps its connection private, as it should.
    connection: () => (store as unknown as { db: Database.Database }).db,
    async close() {
      await server.close(0);
      await store.close();
      removeDir(dir);
    },
  };
}
