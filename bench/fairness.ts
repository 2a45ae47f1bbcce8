/**
 * `npm run bench -- --fairness`: what one account flooding the service does to another's latency.
 * Starts `quire serve` as a user does (bin/quire, its own SQLite file, the default workers), then
 * measures a victim account's README-sized renders one after another — idle, then while a
 * flooder on the Scale plan keeps its 20 concurrent renders busy — and the victim's sealed renders,
 * idle and while the flooder keeps its 20 slots busy with wrong-password PKCS#12 bundles made to
 * cost the most a credential may within the deployment's iteration cap (a SHA-512 MAC at the cap,
 * tried twice for an empty password: about 0.7 s of key derivation for a free 400).
 *
 * Both accounts are clients that follow docs/api.md: a 503 or 429 is retried after its Retry-After, and
 * the victim's latency is the time to its PDF, retries included. The flooder's requests per minute
 * are raised so that only its concurrency bounds it (README renders take less than the 100 ms its
 * plan's 600 a minute would allow).
 */
import { spawn, execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../src/clock.js';
import type { LimitOverrides, PlanId } from '../src/plan-terms.js';
import { DEFAULT_MAX_ITERATIONS } from '../src/seal/seal-settings.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { ROOT, readmeSizedCorpus } from './corpus.js';
import { percentile } from './percentile.js';
import { includedDocuments } from '../src/limits/plans.js';

export interface FairnessFigures {
  workers: number;
  scenarios: ScenarioFigures[];
}

export interface ScenarioFigures {
  name: string;
  idle: LatencyFigures;
  flooded: LatencyFigures;
  /** Answers the flooder had while the victim was measured, by status. */
  flooderAnswers: Record<string, number>;
}

export interface LatencyFigures {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  samples: number;
  /** Refusals the victim retried (queue_full, rate_limited) on the way to its PDFs. */
  retries: number;
}

const FLOOD_LANES = 20;
export const DEFAULT_SAMPLES = 150;
const WARM_UP_ROUNDS = 2;
/** Idle and flooded take turns this many times, so a host that slows for a while slows both alike. */
const ROUNDS = 3;
/** The flood runs this long before the victim starts, so every lane has a request in. */
const FLOOD_LEAD_MS = 2_000;
const PASSWORD = 'bench password';

/** `samples`: the victim's requests in each of the idle and flooded states, per scenario. */
export async function benchFairness(samples = DEFAULT_SAMPLES): Promise<FairnessFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-fairness-'));
  try {
    const bundles = makeBundles(dir);
    const dbFile = path.join(dir, 'quire.db');
    const [victim, flooder] = await createAccounts(dbFile, [
      { plan: 'pro', overrides: { documents: 10_000_000, requests_per_min: 1_000_000 } },
      { plan: 'scale', overrides: { documents: 10_000_000, requests_per_min: 1_000_000 } },
    ]);
    const service = await startService(dbFile);
    try {
      const client = new Client(service.url);
      const readmes = readmeSizedCorpus().map((doc) => readFileSync(doc.file, 'utf8'));
      const render = (i: number) => ({ markdown: readmes[i % readmes.length]!, resources: 'lenient' });
      const sealed = (i: number) => ({ ...render(i), sign: { p12: bundles.victim, password: PASSWORD } });
      const wrongPassword = () => ({ markdown: '# Never rendered', sign: { p12: bundles.heavy, password: '' } });

      const scenario = async (name: string, victimBody: (i: number) => object, floodBody: (i: number) => object): Promise<ScenarioFigures> => {
        // Every document on every worker, so no first-use cost lands in a sample.
        for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
          await Promise.all(Array.from({ length: service.workers }, () => client.series(victim!, victimBody, readmes.length, new Samples())));
        }
        const idle = new Samples();
        const flooded = new Samples();
        const flooderAnswers: Record<string, number> = {};
        for (let round = 0; round < ROUNDS; round += 1) {
          const count = Math.ceil(samples / ROUNDS);
          await client.series(victim!, victimBody, count, idle);
          const flood = client.flood(flooder!, floodBody, FLOOD_LANES);
          await sleep(FLOOD_LEAD_MS);
          flood.answers.clear();
          await client.series(victim!, victimBody, count, flooded);
          for (const [answer, times] of flood.answers) flooderAnswers[answer] = (flooderAnswers[answer] ?? 0) + times;
          await flood.stop();
        }
        return { name, idle: idle.figures(), flooded: flooded.figures(), flooderAnswers };
      };
      return {
        workers: service.workers,
        scenarios: [
          await scenario('README renders; flooder renders README-sized documents on 20 slots', render, render),
          await scenario(
            `sealed README renders; flooder sends wrong-password PKCS#12 at ${DEFAULT_MAX_ITERATIONS.toLocaleString('en')} iterations on 20 slots`,
            sealed,
            wrongPassword,
          ),
        ],
      };
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Account {
  key: string;
}

class Samples {
  readonly times: number[] = [];
  retries = 0;

  figures(): LatencyFigures {
    return {
      p50: percentile(this.times, 0.5),
      p90: percentile(this.times, 0.9),
      p99: percentile(this.times, 0.99),
      max: Math.max(...this.times),
      samples: this.times.length,
      retries: this.retries,
    };
  }
}

class Client {
  constructor(private readonly url: string) {}

  /** `count` requests one after another, each timed to its 200 (refusals retried as docs/api.md says) into `into`. */
  async series(account: Account, body: (i: number) => object, count: number, into: Samples): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      for (;;) {
        const answer = await this.send(account, body(i));
        if (answer.status === 200) break;
        if (answer.retryAfter === undefined) throw new Error(`the victim's request was refused: ${answer.status} ${answer.code}`);
        into.retries += 1;
        await sleep(answer.retryAfter * 1000);
      }
      into.times.push(performance.now() - started);
    }
  }

  /** `lanes` clients sending without pause, each waiting only the Retry-After of a refusal. */
  flood(account: Account, body: (i: number) => object, lanes: number): { answers: Map<string, number>; stop(): Promise<void> } {
    const answers = new Map<string, number>();
    let stopping = false;
    const running = Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = lane; !stopping; i += lanes) {
          const answer = await this.send(account, body(i));
          const label = answer.code ? `${answer.status} ${answer.code}` : String(answer.status);
          answers.set(label, (answers.get(label) ?? 0) + 1);
          if (answer.retryAfter !== undefined) await sleep(answer.retryAfter * 1000);
        }
      }),
    );
    return {
      answers,
      stop: async () => {
        stopping = true;
        await running;
      },
    };
  }

  private async send(account: Account, body: object): Promise<{ status: number; code?: string; retryAfter?: number }> {
    const response = await fetch(`${this.url}/v1/render`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const bytes = await response.arrayBuffer();
    if (response.status === 200) return { status: 200 };
    const code = (JSON.parse(Buffer.from(bytes).toString()) as { code: string }).code;
    const retryAfter = response.headers.get('retry-after');
    return { status: response.status, code, ...(retryAfter !== null && { retryAfter: Number(retryAfter) }) };
  }
}

/** The victim's bundle as OpenSSL 3 writes it; the flooder's with the costliest password check the cap allows. */
function makeBundles(dir: string): { victim: string; heavy: string } {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-subj',
    '/CN=Quire bench signer',
    '-days',
    '30',
    '-keyout',
    'leaf.key',
    '-out',
    'leaf.pem',
  );
  const bundle = (name: string, ...extra: string[]) => {
    openssl('pkcs12', '-export', ...extra, '-inkey', 'leaf.key', '-in', 'leaf.pem', '-passout', `pass:${PASSWORD}`, '-out', name);
    return readFileSync(path.join(dir, name)).toString('base64');
  };
  return { victim: bundle('victim.p12'), heavy: bundle('heavy.p12', '-iter', String(DEFAULT_MAX_ITERATIONS), '-noiter', '-macalg', 'sha512') };
}

async function createAccounts(dbFile: string, wanted: { plan: PlanId; overrides: LimitOverrides }[]): Promise<Account[]> {
  const store = SqliteStore.open(dbFile, systemClock, { included: includedDocuments });
  try {
    const accounts: Account[] = [];
    for (const [index, { plan, overrides }] of wanted.entries()) {
      const account = await store.createAccount({ email: `fairness-${index}@example.com`, plan, emailVerified: true });
      await store.updateAccount(account.id, { overrides });
      accounts.push({ key: (await store.createApiKey(account.id, 'bench')).key });
    }
    return accounts;
  } finally {
    await store.close();
  }
}

/**
 * `quire serve` on a free loopback port, with this machine's default workers. Its DNS server is a
 * closed loopback port: the READMEs' linked images fail at once as placeholders (as in the service
 * benchmark), so a slow answer from the host's resolver never lands in a sample.
 */
async function startService(dbFile: string): Promise<{ url: string; workers: number; stop(): Promise<void> }> {
  const child = spawn(path.join(ROOT, 'bin/quire'), ['serve', '--port', '0', '--host', '127.0.0.1', '--db', dbFile], {
    env: { ...process.env, QUIRE_NET_DNS_SERVERS: `127.0.0.1:${await closedUdpPort()}` },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const listening = await new Promise<{ port: number; workers: number }>((resolve, reject) => {
    void exited.then(() => reject(new Error('quire serve ended before listening')));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const event = parseLine(line);
      if (event?.event === 'listening') resolve({ port: event.port!, workers: event.workers ?? Number.NaN });
    });
  });
  return {
    url: `http://127.0.0.1:${listening.port}`,
    workers: listening.workers,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A loopback UDP port nothing listens on: one the system just gave out and took back. */
async function closedUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

function parseLine(line: string): { event?: string; port?: number; workers?: number } | undefined {
  try {
    return JSON.parse(line) as { event?: string; port?: number; workers?: number };
  } catch {
    return undefined;
  }
}
