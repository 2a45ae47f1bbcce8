/** The operator's paths: Prometheus metrics, liveness and readiness, on the API's port or one of their own. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defaultDeployment } from '../../../src/config/deployment.js';
import { createApp } from '../../../src/http/app.js';
import { RenderPool } from '../../../src/workers/pool.js';
import { startChildService } from '../net/support/child-service.js';
import { createAccount, ManualClock, render, reservations, startService, usage, type TestService } from '../../support/service-harness.js';

/** The value of one sample of the exposition, 0 when absent. */
function sample(metrics: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of metrics.split('\n')) {
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2]?.split(',') ?? [];
    if (wanted.every((pair) => present.includes(pair)) && present.length === wanted.length) return Number(match[3]);
  }
  return 0;
}

describe('metrics, health and readiness', () => {
  let service: TestService;

  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  const metrics = async () => (await fetch(`${service.url}/metrics`)).text();

  it('should answer /healthz and /readyz without a key, no-store, showing no account data', async () => {
    const health = await fetch(`${service.url}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(health.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await health.json(), { status: 'ok' });
    const ready = await fetch(`${service.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready', database: 'ok', workers: 'ok' });
    const wrongMethod = await fetch(`${service.url}/metrics`, { method: 'POST' });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'GET, HEAD');
  });

  it('should count renders by front-end, outcome and code, their durations, and documents charged and returned', async () => {
    const account = await createAccount(service.store);
    const before = await metrics();
    assert.equal((await render(service, account.key, '# One', { 'Idempotency-Key': 'm1' })).status, 200);
    assert.equal((await render(service, account.key, '# One', { 'Idempotency-Key': 'm1' })).status, 200);
    assert.equal((await render(service, account.key, { markdown: '' })).status, 400);
    assert.equal((await render(service, account.key, `${'>'.repeat(100)} deep`)).status, 413);
    const client = new Client({ name: 'metrics-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${account.key}` } } }),
    );
    await client.callTool({ name: 'render_markdown', arguments: { markdown: '# Via MCP' } });
    await client.close();
    const now = await metrics();

    const delta = (name: string, labels: Record<string, string> = {}) => sample(now, name, labels) - sample(before, name, labels);
    assert.equal(delta('quire_renders_total', { front_end: 'api', outcome: 'delivered', code: 'none' }), 1);
    assert.equal(delta('quire_renders_total', { front_end: 'api', outcome: 'replayed', code: 'none' }), 1);
    assert.equal(delta('quire_renders_total', { front_end: 'api', outcome: 'refused', code: 'empty_document' }), 1);
    assert.equal(delta('quire_renders_total', { front_end: 'api', outcome: 'refused', code: 'payload_too_large' }), 1);
    assert.equal(delta('quire_renders_total', { front_end: 'mcp', outcome: 'delivered', code: 'none' }), 1);
    assert.equal(delta('quire_render_duration_seconds_count', { front_end: 'api', outcome: 'delivered' }), 1);
    assert.equal(delta('quire_render_duration_seconds_count', { front_end: 'api', outcome: 'refused' }), 2);
    assert.equal(delta('quire_documents_charged_total'), 2);
    assert.equal(delta('quire_documents_returned_total', { code: 'payload_too_large' }), 1);
    // The delivered and the too-deep API renders and the MCP call reserved (a replay does not); each took a slot.
    assert.equal(delta('quire_store_latency_seconds_count', { operation: 'reserveDocument' }), 3);
    assert.ok(delta('quire_store_latency_seconds_count', { operation: 'takeTokens' }) >= 4);
    assert.match(now, /# TYPE quire_store_latency_seconds histogram/);
    assert.match(now, /# TYPE quire_render_duration_seconds histogram/);
    assert.match(now, /quire_process_resident_memory_bytes/);
    for (const secret of [account.id, account.key, account.keyId]) assert.equal(now.includes(secret), false);
  });

  it('should show the queue depth and the busy workers while renders wait', async () => {
    const gated = await startService({ standIn: true, deployment: { workers: 1, queueLimit: 4 } });
    try {
      const gate = path.join(gated.dir, 'open');
      const [first, second] = [await createAccount(gated.store), await createAccount(gated.store)];
      const running = [render(gated, first.key, `gate:${gate}\n# First`), render(gated, second.key, `gate:${gate}\n# Second`)];
      while (reservations(gated, second.id).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const busy = await (await fetch(`${gated.url}/metrics`)).text();
      assert.equal(sample(busy, 'quire_workers_busy'), 1);
      assert.equal(sample(busy, 'quire_render_queue_depth'), 1);
      assert.equal(sample(busy, 'quire_workers_ready'), 1);
      writeFileSync(gate, '');
      for (const response of await Promise.all(running)) assert.equal(response.status, 200);
      const idle = await (await fetch(`${gated.url}/metrics`)).text();
      assert.deepEqual([sample(idle, 'quire_workers_busy'), sample(idle, 'quire_render_queue_depth')], [0, 0]);
    } finally {
      await gated.close();
    }
  });

  it('should not be ready while the workers start, nor when the database cannot be read', async () => {
    const pool = new RenderPool({ size: 1, queueLimit: 1, memoryMb: 256 });
    const app = createApp({ store: service.store, clock: new ManualClock(), pool, config: defaultDeployment(), log: () => undefined });
    const starting = await app.request('/readyz');
    assert.equal(starting.status, 503);
    assert.deepEqual(await starting.json(), { status: 'not_ready', database: 'ok', workers: 'starting' });
    await pool.started();
    assert.equal((await app.request('/readyz')).status, 200);
    await pool.close(0);
    assert.equal(((await (await app.request('/readyz')).json()) as { workers: string }).workers, 'stopping');

    const broken = await startService();
    await broken.store.close();
    const closed = await fetch(`${broken.url}/readyz`);
    assert.equal(closed.status, 503);
    assert.deepEqual(await closed.json(), { status: 'not_ready', database: 'unavailable', workers: 'ok' });
    await broken.close();
  });
});

describe('operator paths on a port of their own (QUIRE_OPERATOR_PORT)', () => {
  it('should serve /metrics, /healthz and /readyz only on the operator port', async () => {
    const service = await startChildService({ QUIRE_OPERATOR_PORT: '0' });
    try {
      const port = Number(/"event":"operator_listening".*?"port":(\d+)/.exec(service.stderr())![1]);
      const operator = `http://127.0.0.1:${port}`;
      for (const name of ['/metrics', '/healthz', '/readyz']) {
        assert.equal((await fetch(`${operator}${name}`)).status, 200, name);
        assert.equal((await fetch(`${service.url}${name}`)).status, 404, name);
      }
      assert.equal((await fetch(`${operator}/v1/usage`)).status, 404);
      const account = await createAccount(service.store);
      assert.equal((await usage(service.harness, account.key)).status, 200);
      assert.match(await (await fetch(`${operator}/metrics`)).text(), /quire_workers_ready 1/);
    } finally {
      await service.close();
    }
  });
});
