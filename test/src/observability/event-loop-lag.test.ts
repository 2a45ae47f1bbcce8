/** quire_event_loop_lag_seconds: how late the service's main thread was since the previous scrape. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../../support/service-harness.js';

const BLOCK_MS = 300;

function lag(exposition: string): number {
  const match = /^quire_event_loop_lag_seconds (\S+)$/m.exec(exposition);
  assert.ok(match, 'quire_event_loop_lag_seconds is exposed');
  return Number(match[1]);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('event loop lag metric', () => {
  let service: TestService;

  before(async () => {
    service = await startService({ standIn: true });
  });
  after(() => service.close());

  const scrape = async () => lag(await (await fetch(`${service.url}/metrics`)).text());

  it('should expose a small lag while the loop is free, one covering a blocked stretch after it, then fall again', async () => {
    await pause(100);
    const exposition = await (await fetch(`${service.url}/metrics`)).text();
    assert.match(exposition, /^# TYPE quire_event_loop_lag_seconds gauge$/m);
    const free = lag(exposition);
    assert.ok(free >= 0 && free < BLOCK_MS / 1000, `free loop: ${free} s`);

    // The service runs in this process: holding this thread holds its event loop.
    await pause(50);
    const started = performance.now();
    while (performance.now() - started < BLOCK_MS);
    await pause(50);
    const blocked = await scrape();
    assert.ok(blocked >= (BLOCK_MS - 20) / 1000 && blocked < 5, `blocked ${BLOCK_MS} ms: ${blocked} s`);

    await pause(100);
    const after = await scrape();
    assert.ok(after < blocked, `counted since the previous scrape: ${after} s after ${blocked} s`);
  });
});
