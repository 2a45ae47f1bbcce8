/** Renders run in workers: time limits, crashes, memory, the queue and per-account limits. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAccount, errorBody, render, reservations, startService, type TestService } from '../../support/service-harness.js';

describe('render workers', () => {
  let service: TestService;

  before(async () => {
    service = await startService({ standIn: true, deployment: { workers: 1, queueLimit: 8, workerMemoryMb: 128 } });
  });
  after(() => service.close());

  async function stillServes(key: string): Promise<void> {
    const response = await render(service, key, '# Still here');
    assert.equal(response.status, 200);
    await response.arrayBuffer();
  }

  it('should answer a render past the plan time 422 render_timeout, return the document and replace the worker', async () => {
    const account = await createAccount(service.store, { overrides: { timeout_s: 1 } });
    const response = await render(service, account.key, 'hang');
    assert.equal(response.status, 422);
    const error = await errorBody(response);
    assert.equal(error.code, 'render_timeout');
    assert.deepEqual(error.limit, { name: 'timeout_s', value: 1, plan: 'starter' });
    assert.deepEqual(reservations(service, account.id), [{ state: 'returned', error_code: 'render_timeout', pages: null }]);
    await stillServes(account.key);
  });

  it('should answer a crashed worker 500 render_failed for that request only', async () => {
    const account = await createAccount(service.store);
    const response = await render(service, account.key, 'crash');
    assert.equal(response.status, 500);
    assert.equal((await errorBody(response)).code, 'render_failed');
    assert.deepEqual(reservations(service, account.id), [{ state: 'returned', error_code: 'render_failed', pages: null }]);
    await stillServes(account.key);
  });

  it('should answer a worker out of memory 413 preparation_limit with renderer_bound OutOfMemory', async () => {
    const account = await createAccount(service.store);
    const response = await render(service, account.key, 'out of memory');
    assert.equal(response.status, 413);
    const error = await errorBody(response);
    assert.deepEqual(error, { code: 'payload_too_large', error: error.error, reason: 'preparation_limit', renderer_bound: 'OutOfMemory' });
    assert.equal(reservations(service, account.id)[0]?.error_code, 'payload_too_large');
    await stillServes(account.key);
  });

  it('should replace a worker whose heap stays past half its limit after a render, answering that render', async () => {
    const account = await createAccount(service.store);
    // 80 MB kept of a 128 MB heap: the next large document would run out of memory in this worker.
    const response = await render(service, account.key, 'hoard:80\n# Kept');
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    assert.ok(
      service.logs.some((line) => line.event === 'worker_replaced'),
      'the worn worker is replaced',
    );
    // The replacement starts empty: 80 MB more fits again, where the worn worker would fail.
    const again = await render(service, account.key, 'hoard:80\n# Kept again');
    assert.equal(again.status, 200);
    await again.arrayBuffer();
  });

  it('should answer a renderer bound 413 preparation_limit naming it, without a limit', async () => {
    const account = await createAccount(service.store);
    const response = await render(service, account.key, `${'>'.repeat(100)} deep`);
    assert.equal(response.status, 413);
    const error = await errorBody(response);
    assert.equal(error.reason, 'preparation_limit');
    assert.equal(error.renderer_bound, 'DepthLimit');
    assert.equal(error.limit, undefined);
  });

  it('should answer an engine failure 422 render_failed without its details', async () => {
    const account = await createAccount(service.store);
    const response = await render(service, account.key, 'throw');
    assert.equal(response.status, 422);
    const error = await errorBody(response);
    assert.equal(error.code, 'render_failed');
    assert.doesNotMatch(JSON.stringify(error), /undefined|TypeError|stand-in/);
    assert.ok(
      service.logs.some((line) => line.event === 'engine_error'),
      'the details go to the log',
    );
  });

  it('should answer unreadable front matter 422 render_failed saying why', async () => {
    const account = await createAccount(service.store);
    const response = await render(service, account.key, '---\ntitle: [unclosed\n---\n# Hi');
    assert.equal(response.status, 422);
    const error = await errorBody(response);
    assert.equal(error.code, 'render_failed');
    assert.match(String(error.error), /front matter/);
  });

  it('should answer a design key with a bad value 422 render_failed naming the key and the value, charging nothing', async () => {
    const account = await createAccount(service.store);
    const response = await render(service, account.key, '---\npaper: b7\nfooter:\n  right: "{chapter}"\n---\n# Hi');
    assert.equal(response.status, 422);
    const error = await errorBody(response);
    assert.equal(error.code, 'render_failed');
    assert.match(String(error.error), /paper must be a4, a5, letter, legal .*not "b7"/);
    assert.deepEqual(reservations(service, account.id), [{ state: 'returned', error_code: 'render_failed', pages: null }]);
  });
});

describe('the render queue', () => {
  it('should answer 503 queue_full with Retry-After: 2 when no worker is free and the queue is full, returning the document', async () => {
    const service = await startService({ standIn: true, deployment: { workers: 1, queueLimit: 1 } });
    try {
      const account = await createAccount(service.store);
      const gate = path.join(service.dir, 'gate');
      // Two renders wait on the gate, one in the only worker and one in the queue: the third finds it full.
      const sent = [1, 2, 3].map((n) => render(service, account.key, `gate:${gate}\n# Busy ${n}`));
      const refused = await Promise.race(sent);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '2');
      assert.equal((await errorBody(refused)).code, 'queue_full');
      writeFileSync(gate, '');
      const statuses = (await Promise.all(sent)).map((response) => response.status).sort();
      assert.deepEqual(statuses, [200, 200, 503]);
      assert.deepEqual(
        reservations(service, account.id)
          .map((row) => [row.state, row.error_code])
          .sort(),
        [
          ['charged', null],
          ['charged', null],
          ['returned', 'queue_full'],
        ],
      );
    } finally {
      await service.close();
    }
  });
});

describe('per-account limits', () => {
  let service: TestService;

  before(async () => {
    service = await startService({ standIn: true });
  });
  after(() => service.close());

  it('should answer 429 rate_limited over requests per minute, with Retry-After and the limit, across keys', async () => {
    const account = await createAccount(service.store, { plan: 'free', overrides: { requests_per_min: 3 } });
    const second = await service.store.createApiKey(account.id, 'second');
    for (const key of [account.key, second.key, account.key]) assert.equal((await render(service, key, '')).status, 400);
    const limited = await render(service, second.key, '# Hi');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '60');
    const error = await errorBody(limited);
    assert.equal(error.code, 'rate_limited');
    assert.deepEqual(error.limit, { name: 'requests_per_min', value: 3, plan: 'free' });
    service.clock.advance(30_000);
    assert.equal((await render(service, account.key, '# Hi')).headers.get('retry-after'), '30');
    service.clock.advance(30_000);
    const admitted = await render(service, account.key, '# Hi');
    assert.equal(admitted.status, 200);
    await admitted.arrayBuffer();
    assert.equal(reservations(service, account.id).length, 1);
  });

  it('should answer 429 rate_limited over concurrent renders, reserving nothing for the refused request', async () => {
    const account = await createAccount(service.store, { overrides: { concurrency: 1 } });
    const gate = path.join(service.dir, 'concurrency-gate');
    const running = render(service, account.key, `gate:${gate}\n# Long`);
    let refused: Response;
    do {
      refused = await render(service, account.key, '# Second');
      if (refused.status === 200) await refused.arrayBuffer();
    } while (refused.status === 200);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.deepEqual((await errorBody(refused)).limit, { name: 'concurrency', value: 1, plan: 'starter' });
    writeFileSync(gate, '');
    assert.equal((await running).status, 200);
    assert.ok(reservations(service, account.id).every((row) => row.state === 'charged'));
  });

  it('should hold render time to the deployment ceiling when it is below the plan, with plan null', async () => {
    const capped = await startService({ standIn: true, deployment: { maxRenderSeconds: 1 } });
    try {
      const account = await createAccount(capped.store, { plan: 'scale' });
      const response = await render(capped, account.key, 'hang');
      assert.equal(response.status, 422);
      assert.deepEqual((await errorBody(response)).limit, { name: 'timeout_s', value: 1, plan: null });
    } finally {
      await capped.close();
    }
  });
});
