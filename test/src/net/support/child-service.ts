/**
 * The service run as `quire serve` in a child process, with an environment of the test's
 * choosing — the only way to have it trust a test CA (NODE_EXTRA_CA_CERTS is read when a process
 * starts) and to switch on QUIRE_NET_ALLOW_LOOPBACK. The test reaches its database directly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../../../src/clock.js';
import { SqliteStore } from '../../../../src/store/sqlite/sqlite-store.js';
import type { TestService } from '../../../support/service-harness.js';
import { includedDocuments } from '../../../../src/limits/plans.js';

const CLI = fileURLToPath(new URL('../../../../src/cli/main.js', import.meta.url));

export interface ChildService {
  url: string;
  store: SqliteStore;
  dbFile: string;
  /** Everything the service logged so far. */
  stderr(): string;
  /** The exit code or signal once the process has ended (before `close`, it should not have). */
  exited(): string | null;
  /** The shape the service harness's helpers (`render`, `reservations`) read. */
  harness: TestService;
  close(): Promise<void>;
}

export async function startChildService(env: Record<string, string>): Promise<ChildService> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-net-service-'));
  const dbFile = path.join(dir, 'quire.db');
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--db', dbFile], {
    // Nothing inherited but the PATH: no QUIRE_* setting of the machine leaks into the test.
    env: { PATH: process.env.PATH ?? '', QUIRE_WORKERS: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      log += text;
      const listening = /"event":"listening".*?"port":(\d+)/.exec(log);
      if (listening) resolve(Number(listening[1]));
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening:\n${log}`)));
  });
  const store = SqliteStore.open(dbFile, systemClock, { included: includedDocuments });
  const url = `http://127.0.0.1:${port}`;
  let exit: string | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = String(code ?? signal);
      resolve();
    }),
  );
  const close = async () => {
    child.kill('SIGTERM');
    await exited;
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  const harness = { url, store, dbFile, dir } as unknown as TestService;
  return { url, store, dbFile, stderr: () => log, exited: () => exit, harness, close };
}
