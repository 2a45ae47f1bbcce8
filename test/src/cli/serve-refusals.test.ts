/**
 * `quire serve` refusing to start — a setting missing, a port taken, a database that does not
 * answer — ends the process at once with a non-zero code and one line saying why. A process
 * that printed its error but stayed alive, listening nowhere, would look healthy to a
 * supervisor (it once did: its workers and database connections held the event loop).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { removeDir, suiteDir } from '../../hostile/support/service-process.js';
import { freshDatabase, type TestDatabase } from '../../support/postgres.js';

const QUIRE_MAIN = new URL('../../../src/cli/main.js', import.meta.url);
/** Starting the workers can take seconds on a loaded machine; the refusal itself must not. */
const START_LIMIT_MS = 30_000;
/** From the error line to the process's end. */
const EXIT_AFTER_ERROR_MS = 5_000;

interface Ended {
  code: number | null;
  signal: string | null;
  /** The lines the command wrote as `quire: …` (its one-line errors). */
  errors: string[];
  exitedAfterErrorMs: number;
}

/** Runs `quire serve` with `args` and `env` (QUIRE_MASTER_KEY and QUIRE_DB* unset unless given); kills it if it outlives the limits. */
function serve(args: string[], env: Record<string, string>): Promise<Ended> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(QUIRE_MASTER_KEY|QUIRE_DB|QUIRE_OPERATOR_)/.test(name)));
  const child = spawn(process.execPath, [QUIRE_MAIN.pathname, 'serve', '--host', '127.0.0.1', ...args], {
    env: { ...inherited, QUIRE_WORKERS: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    let errorAt: number | undefined;
    const limit = setTimeout(() => child.kill('SIGKILL'), START_LIMIT_MS);
    let lingering: NodeJS.Timeout | undefined;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (errorAt === undefined && /^quire: /m.test(stderr)) {
        errorAt = Date.now();
        // Alive long after its error: end it, and let the assertions say so.
        lingering = setTimeout(() => child.kill('SIGKILL'), EXIT_AFTER_ERROR_MS * 2);
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      clearTimeout(lingering);
      const errors = stderr.split('\n').filter((line) => line.startsWith('quire: '));
      resolve({ code, signal, errors, exitedAfterErrorMs: errorAt === undefined ? Infinity : Date.now() - errorAt });
    });
  });
}

function assertRefused(ended: Ended, message: RegExp): void {
  assert.equal(ended.signal, null, `ended by itself, not killed: ${JSON.stringify(ended)}`);
  assert.ok(ended.code !== null && ended.code !== 0, `non-zero exit code: ${ended.code}`);
  assert.equal(ended.errors.length, 1, `one error line: ${JSON.stringify(ended.errors)}`);
  assert.match(ended.errors[0]!, message);
  assert.ok(ended.exitedAfterErrorMs <= EXIT_AFTER_ERROR_MS, `exited ${ended.exitedAfterErrorMs} ms after its error`);
}

describe('quire serve refusing to start', { concurrency: true }, () => {
  let dir: string;
  let database: TestDatabase;
  let taken: Server;
  let takenPort: number;

  before(async () => {
    dir = suiteDir('serve-refusals');
    database = await freshDatabase('serve_refusals');
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    takenPort = (taken.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => taken.close(resolve));
    await database.drop();
    removeDir(dir);
  });

  it('should exit non-zero at once when a PostgreSQL deployment has no master key', async () => {
    const ended = await serve(['--port', '0', '--db', database.url], {});
    assertRefused(ended, /QUIRE_MASTER_KEY/);
  });

  it('should exit non-zero at once when its port is taken', async () => {
    const ended = await serve(['--port', String(takenPort), '--db', path.join(dir, 'port.db')], {});
    assertRefused(ended, /EADDRINUSE/);
  });

  it('should exit non-zero at once when its operator port is taken, on PostgreSQL too', async () => {
    const ended = await serve(['--port', '0', '--db', database.url], { QUIRE_MASTER_KEY: '5a'.repeat(32), QUIRE_OPERATOR_PORT: String(takenPort) });
    assertRefused(ended, /EADDRINUSE/);
  });

  it('should exit non-zero at once when the database does not answer', async () => {
    // Port 1 on loopback: nothing listens there.
    const ended = await serve(['--port', '0', '--db', 'postgres://postgres@127.0.0.1:1/quire'], { QUIRE_MASTER_KEY: '5a'.repeat(32) });
    assertRefused(ended, /cannot open the database postgres:\/\/postgres@127\.0\.0\.1:1\/quire/);
  });

  it('should exit non-zero at once on a port out of range', async () => {
    const ended = await serve(['--port', '70000', '--db', path.join(dir, 'range.db')], {});
    assertRefused(ended, /port/);
  });
});
