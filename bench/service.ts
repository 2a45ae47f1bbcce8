/**
 * The service benchmark: README-sized documents rendered over HTTP on loopback by as many
 * concurrent clients as the machine has cores (in a process of their own, bench/service-client.ts),
 * against the real service (SQLite file, worker pool, every check a real request goes through).
 * Reports renders per second and latency.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { systemClock } from '../src/clock.js';
import { defaultDeployment } from '../src/config/deployment.js';
import { createApp } from '../src/http/app.js';
import { startServer } from '../src/http/server.js';
import { silentLog } from '../src/log.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { RenderPool } from '../src/workers/pool.js';
import { readmeSizedCorpus, ROOT } from './corpus.js';
import type { ClientPlan, ClientSample } from './service-client.js';
import { percentile } from './percentile.js';
import { includedDocuments } from '../src/limits/plans.js';

export interface ServiceFigures {
  /** Successful renders per second over the measured window. */
  rps: number;
  /** Latency of one request, end to end (request sent → PDF received), in milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  failures: number;
  concurrency: number;
  workers: number;
  documents: { name: string; bytes: number; p50: number }[];
  /** Median of `total` minus the engine's phases and the queue wait: what the service adds. */
  serviceOverheadP50: number;
}

const WARM_UP_ROUNDS = 2;
const run = promisify(execFile);

/** Scale accounts the load is spread over: 20 × 600 a minute, beyond any rate the bench reaches. */
const ACCOUNTS = 20;

/** `clients`: requests kept in flight at once (default: one per core). */
export async function benchService(clients = availableParallelism(), durationMs = 10_000): Promise<ServiceFigures> {
  // README-sized: installed READMEs between the 25th and 75th percentile of sizes, chosen by rule.
  const documents = readmeSizedCorpus().map((doc) => ({ name: doc.name, bytes: doc.bytes, markdown: readFileSync(doc.file, 'utf8') }));
  const concurrency = clients;
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-'));
  const store = SqliteStore.open(path.join(dir, 'quire.db'), systemClock, { included: includedDocuments });
  const config = defaultDeployment();
  const pool = new RenderPool({ size: config.workers, queueLimit: config.queueLimit, memoryMb: config.workerMemoryMb });
  const server = await startServer(createApp({ store, clock: systemClock, pool, config, log: silentLog }), pool, {
    port: 0,
    hostname: '127.0.0.1',
  });
  try {
    // Accounts on the Scale plan within its own limits (600 requests a minute, 20 at once):
    // enough of them that the load never meets a limit, as a busy service's load spreads.
    const keys: string[] = [];
    for (let n = 0; n < ACCOUNTS; n += 1) {
      const account = await store.createAccount({ email: `bench-${n}@example.com`, plan: 'scale', emailVerified: true });
      await store.updateAccount(account.id, { overrides: { documents: 10_000_000 } });
      keys.push((await store.createApiKey(account.id, 'bench')).key);
    }
    const url = `http://127.0.0.1:${server.port}/v1/render`;
    // READMEs link badges and screenshots; lenient mode renders them as placeholders.
    const bodies = documents.map((doc) => JSON.stringify({ markdown: doc.markdown, resources: 'lenient' }));
    const plan: ClientPlan = { url, keys, bodies, clients: concurrency, warmUpRounds: WARM_UP_ROUNDS, durationMs };
    const planFile = path.join(dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    // The clients run in a process of their own: the service's main thread serves, and nothing else.
    const { stdout } = await run(process.execPath, [path.join(ROOT, 'dist/bench/service-client.js'), planFile], { maxBuffer: 64 << 20 });
    const { samples: sent, elapsedMs: elapsed } = JSON.parse(stdout) as { samples: ClientSample[]; elapsedMs: number };
    const samples = sent.map((sample) => ({ ...sample, overhead: overhead(sample.serverTiming) }));
    const ok = samples.filter((sample) => sample.ok);
    return {
      rps: ok.length / (elapsed / 1000),
      p50: percentile(
        ok.map((s) => s.ms),
        0.5,
      ),
      p99: percentile(
        ok.map((s) => s.ms),
        0.99,
      ),
      requests: samples.length,
      failures: samples.length - ok.length,
      concurrency,
      workers: config.workers,
      documents: documents.map((doc, i) => ({
        name: doc.name,
        bytes: doc.bytes,
        p50: percentile(
          ok.filter((s) => s.doc === i).map((s) => s.ms),
          0.5,
        ),
      })),
      serviceOverheadP50: percentile(
        ok.map((s) => s.overhead),
        0.5,
      ),
    };
  } finally {
    await server.close(0);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `total` minus the other phases of a Server-Timing header. */
export function overhead(serverTiming: string): number {
  const phases = Object.fromEntries([...serverTiming.matchAll(/(\w+);dur=([\d.]+)/g)].map((match) => [match[1]!, Number(match[2])]));
  const inner = (phases.queue ?? 0) + (phases.setup ?? 0) + (phases.render ?? 0) + (phases.serialize ?? 0);
  return (phases.total ?? 0) - inner;
}
