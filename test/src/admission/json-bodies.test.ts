/**
 * JSON bodies on both doors, POST /v1/render and /mcp: read within the account's own plan
 * ceiling (not the deployment's, derived from the largest plan), their nesting and number of
 * values bounded before JSON.parse, large ones parsed off the event loop — so a hostile body
 * from a Free key costs the service neither seconds of its event loop nor gigabytes.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, it, type TestContext } from 'node:test';
import { planBodyBytes } from '../../../src/limits/body-ceiling.js';
import { PLANS } from '../../../src/limits/plans.js';
import { createAccount, errorBody, render, startService, type TestAccount, type TestService } from '../../support/service-harness.js';

const MIB = 1024 * 1024;
const HOSTILE_BYTES = 40 * MIB;
const FREE_CEILING_KB = Math.floor(planBodyBytes(PLANS.free.limits) / 1024);
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

describe('JSON request bodies', () => {
  let service: TestService;
  let port: number;
  let free: TestAccount;
  let starter: TestAccount;

  before(async () => {
    service = await startService();
    port = Number(new URL(service.url).port);
    free = await createAccount(service.store, { plan: 'free' });
    starter = await createAccount(service.store, { plan: 'starter' });
  });
  after(() => service.close());

  const mcp = (key: string, message: unknown) =>
    fetch(`${service.url}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, ...MCP_HEADERS }, body: JSON.stringify(message) });
  const renderCall = (args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'render_markdown', arguments: args } });

  it("should refuse a Free key's declared 40 MB nested array on /mcp with 413 at the Free ceiling, before reading a byte of it", async () => {
    // Only the headers are sent: an answer proves the service did not wait for the body.
    const answer = await headersOnly(
      port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${free.key}\r\nContent-Length: ${HOSTILE_BYTES}\r\n`,
    );
    assert.match(answer.head, /^HTTP\/1\.1 413 /);
    assert.match(answer.head, /\r\nCache-Control: no-store\r\n/i);
    assert.deepEqual(JSON.parse(answer.body), {
      code: 'payload_too_large',
      error: `The request body is larger than ${FREE_CEILING_KB} KB.`,
      reason: 'body_limit',
      limit: { name: 'body_kb', value: FREE_CEILING_KB, plan: 'free' },
    });
  });

  it('should keep answering /healthz while three 40 MB nested arrays stream in without a declared length, each cut off at the Free ceiling', async (t: TestContext) => {
    let streaming = true;
    const latencies: number[] = [];
    const probe = (async () => {
      while (streaming) {
        const pausedAt = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 5));
        // Counted from when the probe meant to ask, so a stall during its pause shows too.
        const response = await fetch(`${service.url}/healthz`);
        await response.arrayBuffer();
        latencies.push(performance.now() - pausedAt - 5);
        assert.equal(response.status, 200);
      }
    })();
    const uploads = await Promise.all([1, 2, 3].map(() => streamNestedArray(`${service.url}/mcp`, free.key)));
    streaming = false;
    await probe;
    for (const { response, pulledBytes } of uploads) {
      assert.equal(response.status, 413);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.deepEqual((await errorBody(response)).limit, { name: 'body_kb', value: FREE_CEILING_KB, plan: 'free' });
      assert.ok(pulledBytes < HOSTILE_BYTES, `all ${pulledBytes} bytes were taken`);
    }
    t.diagnostic(`/healthz answered ${latencies.length} times while three bodies streamed; slowest ${Math.max(...latencies).toFixed(1)} ms`);
  });

  it("should refuse a body over the Free ceiling but under the deployment's on /v1/render with 413 naming the plan", async () => {
    const response = await render(service, free.key, 'x'.repeat(5 * MIB));
    assert.equal(response.status, 413);
    assert.deepEqual((await errorBody(response)).limit, { name: 'body_kb', value: FREE_CEILING_KB, plan: 'free' });
  });

  it('should refuse JSON nested deeper than 32 levels with 400 json_depth_limit, on /v1/render and /mcp alike', async () => {
    const deep = JSON.parse(`${'['.repeat(32)}${']'.repeat(32)}`) as unknown;
    const api = await render(service, free.key, { markdown: '# x', features: deep });
    assert.equal(api.status, 400);
    const body = await errorBody(api);
    assert.deepEqual([body.code, body.reason], ['invalid_request', 'json_depth_limit']);
    const overMcp = await mcp(free.key, renderCall({ markdown: '# x', features: deep }));
    assert.equal(overMcp.status, 400);
    assert.equal((await errorBody(overMcp)).reason, 'json_depth_limit');
  });

  it('should refuse JSON of more than 10,000 values with 400 json_value_limit, on /v1/render and /mcp alike', async () => {
    const many = new Array<number>(10_000).fill(0);
    const api = await render(service, free.key, { markdown: '# x', features: many });
    assert.equal(api.status, 400);
    assert.equal((await errorBody(api)).reason, 'json_value_limit');
    const overMcp = await mcp(free.key, renderCall({ markdown: '# x', features: many }));
    assert.equal(overMcp.status, 400);
    assert.equal((await errorBody(overMcp)).reason, 'json_value_limit');
  });

  it('should count brackets and commas inside strings as text, not structure', async () => {
    const markdown = `# Brackets\n\n\`${'[{,'.repeat(20_000)}\` and an escaped quote \\" and backslash \\\\`;
    const response = await render(service, starter.key, { markdown, output: 'json' });
    assert.equal(response.status, 200, JSON.stringify(await response.clone().json()));
    assert.equal(((await response.json()) as { pages: number }).pages > 0, true);
  });

  it('should read a JSON body over a mebibyte off the event loop, into the same PDF as the same Markdown sent raw', async () => {
    // A long HTML comment: over a mebibyte of JSON that renders in a moment.
    const markdown = `# Large body\n\n<!--\n${'padding '.repeat(160_000)}\n-->\n\nThe end.\n`;
    assert.ok(JSON.stringify({ markdown }).length > MIB);
    const raw = await render(service, starter.key, markdown, { 'Content-Type': 'text/markdown' });
    const json = await render(service, starter.key, { markdown });
    assert.equal(raw.status, 200);
    assert.equal(json.status, 200);
    const digest = async (response: Response) =>
      createHash('sha256')
        .update(new Uint8Array(await response.arrayBuffer()))
        .digest('hex');
    assert.equal(await digest(json), await digest(raw));
    const overMcp = await mcp(starter.key, renderCall({ markdown }));
    assert.equal(overMcp.status, 200);
    const result = ((await overMcp.json()) as { result: { structuredContent: { sha256: string } } }).result;
    assert.equal(result.structuredContent.sha256, json.headers.get('x-service-sha256'));
  });
});

/** Sends a request head with no body and reads the answer until the server closes. */
function headersOnly(port: number, head: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${head}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\r\n`),
    );
    socket.setTimeout(30_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('end', () => resolve({ head: received.slice(0, received.indexOf('\r\n\r\n')), body: received.slice(received.indexOf('\r\n\r\n') + 4) }));
    socket.on('error', reject);
  });
}

/**
 * POSTs 40 MB of nested arrays (`[[[…]]]`) chunked, as fetch streams a body: the answer is taken
 * as soon as it comes. `pulledBytes` is how much of the body the client had produced by then.
 */
async function streamNestedArray(url: string, key: string): Promise<{ response: Response; pulledBytes: number }> {
  const open = new Uint8Array(64 * 1024).fill(0x5b);
  const close = new Uint8Array(64 * 1024).fill(0x5d);
  let pulledBytes = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulledBytes >= HOSTILE_BYTES) return controller.close();
      controller.enqueue(pulledBytes < HOSTILE_BYTES / 2 ? open : close);
      pulledBytes += open.byteLength;
    },
  });
  const response = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, ...MCP_HEADERS },
    body,
    duplex: 'half',
  } as RequestInit);
  return { response, pulledBytes };
}
