/**
 * `quire serve` as a child process — the real service, its own SQLite file and worker pool — for
 * the hostile, load and fault suites: they measure its memory, kill it and start it again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const QUIRE_MAIN = new URL('../../../src/cli/main.js', import.meta.url);
const START_TIMEOUT_MS = 60_000;

export interface ServiceProcess {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly dbFile: string;
  /** Log lines the service wrote on stderr, parsed. */
  readonly logs: Record<string, unknown>[];
  /** Resident memory of the process now (the workers are threads of it), from /proc. */
  rssBytes(): number;
  /** The largest resident memory the process has had (VmHWM). */
  peakRssBytes(): number;
  /** Resolves with the exit code or signal once the process has ended. */
  readonly exited: Promise<string>;
  /** SIGKILL: no shutdown of any kind. */
  kill(): Promise<string>;
  /** SIGTERM, as an operator stops it. */
  stop(): Promise<string>;
}

export interface SpawnOptions {
  /** The database file or postgres:// URL; a new file in a temporary folder when absent. */
  dbFile?: string;
  env?: Record<string, string>;
}

/** A folder for one suite's database (and master key), removed by `removeDir`. */
export function suiteDir(name: string): string {
  return mkdtempSync(path.join(tmpdir(), `quire-${name}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function spawnService(options: SpawnOptions = {}): Promise<ServiceProcess> {
  const dbFile = options.dbFile ?? path.join(suiteDir('service'), 'quire.db');
  const child = spawn(process.execPath, [QUIRE_MAIN.pathname, 'serve', '--port', '0', '--host', '127.0.0.1', '--db', dbFile], {
    env: { ...process.env, QUIRE_WORKERS: '2', ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  // A suite that dies must not leave its service running.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      process.off('exit', orphanGuard);
      resolve(signal ?? String(code));
    }),
  );
  const port = await listeningPort(child, logs, exited);
  const pid = child.pid!;
  const status = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match?.[1] ?? 0) * 1024;
  };
  const end = (signal: NodeJS.Signals) => {
    child.kill(signal);
    return exited;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid,
    dbFile,
    logs,
    rssBytes: () => status('VmRSS'),
    peakRssBytes: () => status('VmHWM'),
    exited,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}

function listeningPort(child: ChildProcess, logs: Record<string, unknown>[], exited: Promise<string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('quire serve did not start listening in time')), START_TIMEOUT_MS);
    void exited.then((how) => reject(new Error(`quire serve ended before listening (${how}): ${JSON.stringify(logs.slice(-3))}`)));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line) as Record<string, unknown>;
      } catch {
        event = { event: 'stderr', line };
      }
      logs.push(event);
      if (event.event === 'listening') {
        clearTimeout(timer);
        resolve(event.port as number);
      }
    });
  });
}
