import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildService } from '../net/support/child-service.js';
import { startDnsStub, type DnsStub } from '../net/support/dns-stub.js';
import { startTestServer, type TestServer } from '../net/support/test-server.js';
import { FIXTURES } from '../../support/fixtures.js';
import { createAccount, errorBody, render, reservations, startService } from '../../support/service-harness.js';

const PNG = readFileSync(path.join(FIXTURES, 'images/dot.png'));

describe('graceful shutdown', () => {
  it('should let a render finish within the grace period', async () => {
    const service = await startService({ standIn: true });
    try {
      const account = await createAccount(service.store);
      const gate = path.join(service.dir, 'gate');
      const inFlight = render(service, account.key, `gate:${gate}\n# Finishing`);
      while (reservations(service, account.id).length === 0) await new Promise((r) => setTimeout(r, 5));
      const stopping = service.shutdown(60_000);
      writeFileSync(gate, '');
      const response = await inFlight;
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      await stopping;
      assert.deepEqual(
        reservations(service, account.id).map((row) => row.state),
        ['charged'],
      );
      await assert.rejects(fetch(`${service.url}/v1/usage`));
    } finally {
      await service.close();
    }
  });

  it('should answer /readyz 503 from the moment the drain begins, while the render in flight completes', async () => {
    const service = await startService({ standIn: true });
    try {
      const account = await createAccount(service.store);
      assert.equal((await fetch(`${service.url}/readyz`)).status, 200);
      const gate = path.join(service.dir, 'gate');
      const inFlight = render(service, account.key, `gate:${gate}\n# Draining`);
      let answered = false;
      void inFlight.finally(() => (answered = true));
      while (reservations(service, account.id).length === 0) await new Promise((r) => setTimeout(r, 5));
      const stopping = service.shutdown(60_000);

      const ready = await fetch(`${service.url}/readyz`);
      assert.equal(ready.status, 503);
      assert.deepEqual(await ready.json(), { status: 'not_ready', database: 'ok', workers: 'stopping' });
      assert.equal(ready.headers.get('connection'), 'close');
      assert.equal((await fetch(`${service.url}/healthz`)).status, 200, 'alive while it drains');
      // New work is refused, at no charge; the render in flight is still running.
      const late = await render(service, account.key, '# Too late');
      assert.equal(late.status, 503);
      assert.equal((await errorBody(late)).code, 'render_unavailable');
      assert.equal(answered, false, 'the render in flight was answered before the gate opened');

      writeFileSync(gate, '');
      const response = await inFlight;
      assert.equal(response.status, 200);
      assert.equal(
        Buffer.from(await response.arrayBuffer())
          .subarray(0, 5)
          .toString(),
        '%PDF-',
      );
      await stopping;
      assert.deepEqual(
        reservations(service, account.id).map((row) => [row.state, row.error_code]),
        [
          ['charged', null],
          ['returned', 'render_unavailable'],
        ],
      );
      await assert.rejects(fetch(`${service.url}/readyz`), 'the port is closed once the drain is over');
    } finally {
      await service.close();
    }
  });

  it('should answer renders still running after the grace period 503 render_unavailable and return their documents', async () => {
    const service = await startService({ standIn: true });
    try {
      const account = await createAccount(service.store);
      const inFlight = render(service, account.key, `gate:${path.join(service.dir, 'never')}\n# Stuck`);
      while (reservations(service, account.id).length === 0) await new Promise((r) => setTimeout(r, 5));
      const stopping = service.shutdown(0);
      const response = await inFlight;
      assert.equal(response.status, 503);
      assert.equal((await errorBody(response)).code, 'render_unavailable');
      await stopping;
      assert.deepEqual(reservations(service, account.id), [{ state: 'returned', error_code: 'render_unavailable', pages: null }]);
    } finally {
      await service.close();
    }
  });
});

/**
 * `quire serve` itself, stopped by SIGTERM while a render waits on an image the test holds back:
 * the render is in flight for as long as the test likes, whatever the machine's speed.
 */
describe('quire serve draining on SIGTERM', () => {
  let images: TestServer;
  let dns: DnsStub;
  /** Held image requests, answered when the test lets them go. */
  const held: (() => void)[] = [];
  const release = () => {
    for (const answer of held.splice(0)) answer();
  };

  before(async () => {
    images = await startTestServer({
      '/held.png': (_request, response) => held.push(() => response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG)),
    });
    dns = await startDnsStub({ 'img.example.com': ['127.0.0.1'] });
  });
  after(async () => {
    release();
    await Promise.all([images.close(), dns.close()]);
  });

  /** Starts the service, puts a render in flight (its image held), sends SIGTERM; `during` runs while the render is still held. */
  async function drainWhileRendering(env: Record<string, string>, during: (urls: { api: string; operator: string | undefined }) => Promise<void>) {
    const service = await startChildService({ QUIRE_NET_DNS_SERVERS: dns.server, QUIRE_NET_ALLOW_LOOPBACK: '1', ...env });
    let stopped: Promise<void> | undefined;
    try {
      const operatorPort = /"event":"operator_listening".*?"port":(\d+)/.exec(service.stderr())?.[1];
      const urls = { api: service.url, operator: operatorPort && `http://127.0.0.1:${operatorPort}` };
      const probe = urls.operator ?? urls.api;
      assert.equal((await fetch(`${probe}/readyz`)).status, 200);

      const account = await createAccount(service.store);
      const hits = images.hits.length;
      const inFlight = render(service.harness, account.key, { markdown: `# Held\n\n![dot](http://img.example.com:${images.port}/held.png)` });
      let answered = false;
      void inFlight.finally(() => (answered = true));
      while (images.hits.length === hits) await new Promise((resolve) => setTimeout(resolve, 5));

      stopped = service.close(); // SIGTERM
      // The signal takes a moment to arrive: the first 503 is the drain's first moment.
      const deadline = Date.now() + 10_000;
      let ready = await fetch(`${probe}/readyz`);
      while (ready.status === 200 && Date.now() < deadline) {
        await ready.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 10));
        ready = await fetch(`${probe}/readyz`);
      }
      assert.equal(ready.status, 503, '/readyz answers 503 once draining');
      assert.equal(((await ready.json()) as { workers: string }).workers, 'stopping');
      await during(urls);
      assert.equal(answered, false, 'the render was answered while its image was held');

      release();
      const response = await inFlight;
      assert.equal(response.status, 200);
      assert.equal(
        Buffer.from(await response.arrayBuffer())
          .subarray(0, 5)
          .toString(),
        '%PDF-',
      );
      await stopped;
      assert.equal(service.exited(), '0');
      assert.match(service.stderr(), /"event":"stopped"/);
    } finally {
      release();
      await (stopped ?? service.close());
    }
  }

  it('should answer /readyz 503 on the API port from SIGTERM on, while the render in flight completes', async () => {
    await drainWhileRendering({}, async ({ api }) => {
      assert.equal((await fetch(`${api}/readyz`)).status, 503, 'still 503 a moment later');
      assert.equal((await fetch(`${api}/healthz`)).status, 200);
    });
  });

  it('should answer /readyz 503 on the operator port while the API port refuses new connections', async () => {
    await drainWhileRendering({ QUIRE_OPERATOR_PORT: '0' }, async ({ api }) => {
      await assert.rejects(fetch(`${api}/v1/openapi.json`), 'the API port no longer accepts connections');
    });
  });
});
