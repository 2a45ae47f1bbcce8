/**
 * Every case of fixtures/hostile/manifest.json against `quire serve` as a child process: the
 * documented status and code (and renderer bound), answered within the plan's render time plus
 * one second, the server's resident memory below the stated ceiling throughout, and the service
 * still rendering the next request.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createAccounts, type SuiteAccount } from './support/accounts.js';
import { rawRequest, type RawResponse } from './support/raw-http.js';
import { buildRequest, type Recipe } from './support/recipe.js';
import { spawnService, type ServiceProcess } from './support/service-process.js';
import { FULL, MIB } from './support/suite-mode.js';

interface Expectation {
  status: number;
  code?: string;
  reason?: string;
  bound?: string;
  /** Text a delivered PDF must not contain, in any case (script actions, file links…). */
  excludes?: string[];
}

type Expect = number | string | Expectation;

interface HostileCase {
  name: string;
  recipe: Recipe;
  /**
   * 200; "413 payload_too_large markdown_limit" (status, code, reason); a bound name such as
   * "DepthLimit"; or in full. A list where only the render time bounds the case: what it gets
   * then depends on the machine's speed (rendered in time, or 422 render_timeout).
   */
  expect: Expect | Expect[];
  /** Left out of the short (CI) run. */
  slow?: boolean;
}

interface Manifest {
  /** Render time the suite's accounts run under (an account limit), in seconds. */
  renderSeconds: number;
  workerMemoryMb: number;
  /** Resident memory of the whole service (main thread and workers) never to be passed. */
  memoryCeilingMb: number;
  cases: HostileCase[];
}

const manifest = JSON.parse(readFileSync(new URL('../../../fixtures/hostile/manifest.json', import.meta.url), 'utf8')) as Manifest;
const cases = manifest.cases.filter((entry) => FULL || !entry.slow);
/** How often the service's resident memory is read during a case. */
const SAMPLE_MS = 20;

describe(`hostile corpus (${cases.length} of ${manifest.cases.length} cases)`, () => {
  let service: ServiceProcess;
  const accounts: Record<string, SuiteAccount> = {};
  const figures = { cases: 0, crashes: 0, hangs: 0, wrong: 0, peakRssMb: 0, slowestMs: 0, slowest: '' };

  before(async () => {
    service = await spawnService({ env: { QUIRE_WORKER_MEMORY_MB: String(manifest.workerMemoryMb) } });
    const overrides = { requests_per_min: 1_000_000, concurrency: 10, documents: 1_000_000, timeout_s: manifest.renderSeconds };
    const [pro, free] = await createAccounts(service.dbFile, [
      { plan: 'pro', overrides },
      { plan: 'free', overrides },
    ]);
    Object.assign(accounts, { pro, free });
  });

  after(async () => {
    figures.peakRssMb = Math.round(service.peakRssBytes() / MIB);
    console.log(`hostile figures: ${JSON.stringify(figures)}`);
    await service.stop();
  });

  for (const entry of cases) {
    it(entry.name, async () => {
      figures.cases += 1;
      const request = buildRequest(entry.recipe, accounts[entry.recipe.plan ?? 'pro']!.key);
      const limitMs = (manifest.renderSeconds + 1) * 1000;
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, service.rssBytes())), SAMPLE_MS);
      let response: RawResponse;
      try {
        response = await rawRequest(service.port, request, limitMs + 30_000);
      } catch (error) {
        figures.crashes += 1;
        throw error;
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, service.rssBytes());
      figures.peakRssMb = Math.max(figures.peakRssMb, Math.round(peak / MIB));
      if (response.ms > figures.slowestMs) Object.assign(figures, { slowestMs: Math.round(response.ms), slowest: entry.name });
      if (response.status === 500) figures.crashes += 1;
      if (response.ms > limitMs) figures.hangs += 1;

      const answer = describeAnswer(response);
      const accepted = (Array.isArray(entry.expect) ? entry.expect : [entry.expect]).map(expectation);
      const expected = accepted.find((wanted) => matches(answer, wanted)) ?? accepted[0]!;
      if (!matches(answer, expected)) figures.wrong += 1;
      assert.deepEqual(pick(answer, expected), pick(expected, expected), `answered ${JSON.stringify(answer)}`);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.ok(response.ms <= limitMs, `answered after ${Math.round(response.ms)} ms, over ${limitMs} ms`);
      assert.ok(peak < manifest.memoryCeilingMb * MIB, `the service reached ${Math.round(peak / MIB)} MB`);
      const pdf = response.body.toString('latin1').toLowerCase();
      for (const text of expected.excludes ?? []) assert.equal(pdf.includes(text.toLowerCase()), false, `the PDF contains ${text}`);
      await stillServes(service.port, accounts.pro!.key);
    });
  }
});

function expectation(expect: Expect): Expectation {
  if (typeof expect === 'number') return { status: expect };
  if (typeof expect === 'object') return expect;
  const [status, code, reason] = expect.split(' ');
  if (/^\d+$/.test(status!)) return { status: Number(status), ...(code && { code }), ...(reason && { reason }) };
  return { status: 413, code: 'payload_too_large', reason: 'preparation_limit', bound: expect };
}

interface Answer {
  status: number;
  code?: string;
  reason?: string;
  bound?: string;
}

function describeAnswer(response: RawResponse): Answer {
  if (response.status === 200) return { status: 200 };
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    // Not the SPEC's error body: the comparison shows it.
  }
  return {
    status: response.status,
    ...(typeof body.code === 'string' && { code: body.code }),
    ...(typeof body.reason === 'string' && { reason: body.reason }),
    ...(typeof body.renderer_bound === 'string' && { bound: body.renderer_bound }),
  };
}

function matches(answer: Answer, wanted: Expectation): boolean {
  return JSON.stringify(pick(answer, wanted)) === JSON.stringify(pick(wanted, wanted));
}

/** The answer's fields the expectation names (undefined ones stay, so a missing code shows). */
function pick(answer: Answer, wanted: Answer): Answer {
  return {
    status: answer.status,
    code: wanted.code === undefined ? undefined : answer.code,
    reason: wanted.reason === undefined ? undefined : answer.reason,
    bound: wanted.bound === undefined ? undefined : answer.bound,
  };
}

async function stillServes(port: number, key: string): Promise<void> {
  const next = await rawRequest(port, { headers: [`Authorization: Bearer ${key}`, 'Content-Type: text/markdown'], body: Buffer.from('# Still here') }, 30_000);
  assert.equal(next.status, 200, 'the service answers the next request');
}
