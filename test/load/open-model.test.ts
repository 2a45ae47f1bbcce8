/**
 * An open-model load test against `quire serve` as a child process: requests arrive at a fixed
 * mean rate (Poisson arrivals, seeded) whether or not earlier ones have finished, as independent
 * clients would send them. Reports p50/p95/p99 latency, the error rate and the service's memory
 * growth. QUIRE_SUITE=full: 10 requests a second for 10 minutes; otherwise 20 seconds.
 * QUIRE_LOAD_RATE and QUIRE_LOAD_SECONDS override both.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createAccounts, type SuiteAccount } from '../hostile/support/accounts.js';
import { spawnService, type ServiceProcess } from '../hostile/support/service-process.js';
import { bySuite, MIB } from '../hostile/support/suite-mode.js';
import { seededRandom } from '../hostile/support/seeded-random.js';

const RATE_PER_S = Number(process.env.QUIRE_LOAD_RATE ?? 10);
const DURATION_S = Number(process.env.QUIRE_LOAD_SECONDS ?? bySuite(20, 600));
/** Memory is compared between the first and the last window of this length (after the warm-up). */
const WINDOW_S = Math.min(60, Math.max(5, Math.floor(DURATION_S / 5)));
const WARM_UP_REQUESTS = 20;

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url), 'utf8');
/** A mix of what people send: notes, a README with code and a table, the kitchen sink, a long table. */
const MIX: { markdown: string; weight: number }[] = [
  { markdown: '# Meeting notes\n\n- Agree the plan\n- Ship *on time*\n\nThanks, **everyone**.', weight: 5 },
  {
    markdown: `# Project\n\n${'Some prose about the project, wrapped over several lines of text. '.repeat(30)}\n\n\`\`\`ts\nexport const answer = 42;\n\`\`\`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`,
    weight: 3,
  },
  { markdown: fixture('kitchen-sink.md'), weight: 1 },
  { markdown: fixture('table-200.md'), weight: 1 },
];

describe(`open-model load: ${RATE_PER_S} requests a second for ${DURATION_S} s`, () => {
  let service: ServiceProcess;
  let accounts: SuiteAccount[];

  before(async () => {
    service = await spawnService();
    accounts = await createAccounts(
      service.dbFile,
      Array.from({ length: 10 }, () => ({ plan: 'scale' as const, overrides: { documents: 10_000_000, requests_per_min: 1_000_000, concurrency: 1_000 } })),
    );
  });
  after(() => service.stop());

  it('should answer every request, with latency percentiles and memory growth reported', async () => {
    const random = seededRandom(7);
    const pick = () => {
      let roll = random() * MIX.reduce((sum, entry) => sum + entry.weight, 0);
      return MIX.find((entry) => (roll -= entry.weight) < 0)!.markdown;
    };
    for (let n = 0; n < WARM_UP_REQUESTS; n += 1) assert.equal((await send(service, accounts[n % accounts.length]!, pick())).status, 200);

    const rss: { at: number; bytes: number }[] = [];
    const sampler = setInterval(() => rss.push({ at: performance.now(), bytes: service.rssBytes() }), 1_000);
    const results: Promise<{ status: number; ms: number }>[] = [];
    const started = performance.now();
    let due = 0;
    // Arrivals are scheduled ahead and sent on time however many are still in flight.
    while (due < DURATION_S * 1000) {
      const wait = started + due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      results.push(send(service, accounts[results.length % accounts.length]!, pick()));
      due += (-Math.log(1 - random()) / RATE_PER_S) * 1000;
    }
    const answers = await Promise.all(results);
    clearInterval(sampler);

    const latencies = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    const errors = answers.filter((answer) => answer.status !== 200).length;
    const windowSamples = WINDOW_S;
    const average = (samples: typeof rss) => samples.reduce((sum, sample) => sum + sample.bytes, 0) / samples.length;
    const figures = {
      rate: RATE_PER_S,
      seconds: DURATION_S,
      requests: answers.length,
      p50: Math.round(percentile(latencies, 0.5)),
      p95: Math.round(percentile(latencies, 0.95)),
      p99: Math.round(percentile(latencies, 0.99)),
      errorRate: errors / answers.length,
      rssFirstMb: Math.round(average(rss.slice(0, windowSamples)) / MIB),
      rssLastMb: Math.round(average(rss.slice(-windowSamples)) / MIB),
      rssGrowthMb: Math.round((average(rss.slice(-windowSamples)) - average(rss.slice(0, windowSamples))) / MIB),
      rssPeakMb: Math.round(service.peakRssBytes() / MIB),
    };
    console.log(`load figures: ${JSON.stringify(figures)}`);
    assert.equal(errors, 0, `${errors} of ${answers.length} requests failed`);
    // A leak would show as steady growth; after the warm-up the resident set should stay level.
    assert.ok(figures.rssGrowthMb < 150, `resident memory grew by ${figures.rssGrowthMb} MB`);
  });
});

async function send(service: ServiceProcess, account: SuiteAccount, markdown: string): Promise<{ status: number; ms: number }> {
  const sent = performance.now();
  try {
    const response = await fetch(`${service.url}/v1/render`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ markdown, resources: 'lenient' }),
    });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - sent };
  } catch {
    return { status: 0, ms: performance.now() - sent };
  }
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}
