/**
 * `npm run bench -- --scale`: the service on PostgreSQL beside SQLite.
 *
 * 1. Store time per render: the calls one render makes to its store (authenticate, a request
 *    token, a render slot, reserve, charge, slot given back), timed as one sequence — by one
 *    client (the overhead a render pays) and by 8 at once (under load) — on a SQLite file and
 *    on PostgreSQL on loopback.
 * 2. Renders per second over HTTP of one, two and three `quire serve` processes on one fresh
 *    PostgreSQL database, and of one on SQLite, README-sized documents, each instance with one
 *    render worker and pinned to its own core with taskset where the machine has one for it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { systemClock } from '../src/clock.js';
import { openStore, type StoreLocation } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';
import { freshDatabase } from '../test/support/postgres.js';
import { readmeSizedCorpus } from './corpus.js';
import { percentile } from './percentile.js';
import { overhead } from './service.js';
import { includedDocuments } from '../src/limits/plans.js';

const QUIRE_MAIN = new URL('../src/cli/main.js', import.meta.url).pathname;
const SEQUENCES = 2_000;
const CLIENTS = 8;
const HTTP_SECONDS = 10;

export interface StoreTimes {
  store: string;
  clients: number;
  p50: number;
  p99: number;
}

export interface InstanceFigures {
  label: string;
  instances: number;
  cpus: string;
  rps: number;
  p50: number;
  p99: number;
  /** Median of the service's own time per render (Server-Timing total minus queue and engine). */
  overheadP50: number;
  failures: number;
}

export interface ScaleFigures {
  store: StoreTimes[];
  http: InstanceFigures[];
  cores: number;
}

export async function benchScale(): Promise<ScaleFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-scale-'));
  const databases = [await freshDatabase('bench_store'), await freshDatabase('bench_http')];
  try {
    const sqlite: StoreLocation = { kind: 'sqlite', file: path.join(dir, 'store.db') };
    const postgres: StoreLocation = { kind: 'postgres', url: databases[0]!.url };
    const store: StoreTimes[] = [];
    for (const clients of [1, CLIENTS]) store.push(await storeTimes('SQLite', sqlite, clients), await storeTimes('PostgreSQL', postgres, clients));
    const http: InstanceFigures[] = [];
    const cores = availableParallelism();
    for (const count of [1, 2, 3]) http.push(await instancesOver(`PostgreSQL × ${count}`, databases[1]!.url, count, cores));
    http.push(await instancesOver('SQLite × 1', path.join(dir, 'http.db'), 1, cores));
    return { store, http, cores };
  } finally {
    await Promise.all(databases.map((database) => database.drop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function storeTimes(name: string, location: StoreLocation, clients: number): Promise<StoreTimes> {
  const store = await openStore(location, systemClock, { included: includedDocuments, poolSize: CLIENTS });
  try {
    const { key } = await benchAccount(store);
    const once = async () => {
      const started = performance.now();
      const principal = (await store.authenticate(key))!;
      const accountId = principal.account.id;
      await store.takeTokens(accountId, 'request', 10_000_000, 1);
      const slot = await store.takeTokens(accountId, 'render', 1_000, 1);
      const reservation = await store.reserveDocument(accountId, principal.keyId);
      await store.chargeReservation(reservation.id, 1);
      if (slot.granted) await store.giveBackTokens(accountId, 'render', slot.slots);
      return performance.now() - started;
    };
    for (let i = 0; i < 100; i += 1) await once();
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (times.length < SEQUENCES) times.push(await once());
      }),
    );
    return { store: name, clients, p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
  } finally {
    await store.close();
  }
}

async function benchAccount(store: Store): Promise<{ key: string }> {
  const account = await store.createAccount({ email: `bench-${Date.now()}-${Math.random()}@example.com`, plan: 'scale', emailVerified: true });
  await store.updateAccount(account.id, { overrides: { documents: 10_000_000, requests_per_min: 10_000_000, concurrency: 1_000 } });
  return { key: (await store.createApiKey(account.id, 'bench')).key };
}

async function instancesOver(label: string, db: string, count: number, cores: number): Promise<InstanceFigures> {
  const location: StoreLocation = db.startsWith('postgres') ? { kind: 'postgres', url: db } : { kind: 'sqlite', file: db };
  const store = await openStore(location, systemClock, { included: includedDocuments, poolSize: 2 });
  const { key } = await benchAccount(store);
  await store.close();
  const pinned = cores >= count && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  const children = await Promise.all(Array.from({ length: count }, (_, i) => startInstance(db, pinned ? String(i) : undefined)));
  try {
    const documents = readmeSizedCorpus().map((doc) => JSON.stringify({ markdown: readFileSync(doc.file, 'utf8'), resources: 'lenient' }));
    const send = async (port: number, body: string) => {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/v1/render`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body,
      });
      await response.arrayBuffer();
      return { ok: response.status === 200, ms: performance.now() - started, overhead: overhead(response.headers.get('server-timing') ?? '') };
    };
    // Two clients per instance keep its one worker busy while a request crosses the socket.
    const clients = 2 * count;
    for (const child of children) for (const body of documents) await send(child.port, body);
    const samples: { ok: boolean; ms: number; overhead: number }[] = [];
    const started = performance.now();
    const deadline = started + HTTP_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let next = client; performance.now() < deadline; next += 1) {
          samples.push(await send(children[client % count]!.port, documents[next % documents.length]!));
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const ok = samples.filter((sample) => sample.ok);
    return {
      label,
      instances: count,
      cpus: pinned ? children.map((_, i) => String(i)).join(',') : 'shared',
      rps: ok.length / elapsed,
      p50: percentile(
        ok.map((s) => s.ms),
        0.5,
      ),
      p99: percentile(
        ok.map((s) => s.ms),
        0.99,
      ),
      overheadP50: percentile(
        ok.map((s) => s.overhead),
        0.5,
      ),
      failures: samples.length - ok.length,
    };
  } finally {
    for (const child of children) child.process.kill('SIGKILL');
  }
}

async function startInstance(db: string, cpu: string | undefined): Promise<{ process: ChildProcess; port: number }> {
  const command = [process.execPath, QUIRE_MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--db', db];
  const [file, ...args] = cpu === undefined ? command : ['taskset', '-c', cpu, ...command];
  const child = spawn(file!, args, {
    // READMEs link badges: a DNS server on a closed loopback port refuses their lookups at once,
    // as the in-process service benchmark's workers (no network settings) skip them.
    env: { ...process.env, QUIRE_WORKERS: '1', QUIRE_MASTER_KEY: '5a'.repeat(32), QUIRE_NET_DNS_SERVERS: '127.0.0.1:1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`quire serve ended (${code}) before listening`)));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (!line.includes('"listening"')) return;
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  return { process: child, port };
}
