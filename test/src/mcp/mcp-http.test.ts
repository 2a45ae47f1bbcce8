/** MCP over Streamable HTTP at /mcp, driven by the SDK's own client against the real service. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js';
import { PLANS } from '../../../src/limits/plans.js';
import { pageSizes, pdftotext } from '../../support/pdf-tools.js';
import { createAccount, errorBody, render, reservations, startService, usage, type TestAccount, type TestService } from '../../support/service-harness.js';

async function connect(service: TestService, key: string | undefined): Promise<Client> {
  const client = new Client({ name: 'quire-test', version: '1' });
  const headers: Record<string, string> = key === undefined ? {} : { Authorization: `Bearer ${key}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers } }));
  return client;
}

/** One JSON-RPC message (or batch) POSTed to /mcp as an MCP client would, without the SDK. */
function mcpPost(service: TestService, key: string, message: unknown): Promise<Response> {
  return fetch(`${service.url}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify(message),
  });
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function structured(result: CallToolResult): Record<string, unknown> {
  assert.ok(result.structuredContent, JSON.stringify(result.content));
  return result.structuredContent;
}

function embeddedPdf(result: CallToolResult): Buffer {
  const resource = result.content.find((item): item is EmbeddedResource => item.type === 'resource');
  assert.ok(resource, 'an embedded resource');
  assert.equal(resource.resource.mimeType, 'application/pdf');
  assert.ok('blob' in resource.resource);
  return Buffer.from(resource.resource.blob, 'base64');
}

describe('MCP over Streamable HTTP', () => {
  let service: TestService;
  let account: TestAccount;
  let client: Client;

  before(async () => {
    service = await startService();
    account = await createAccount(service.store, { plan: 'starter' });
    client = await connect(service, account.key);
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  it("should list render_markdown and get_usage, with the API's fields as the input schema and no file path", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['render_markdown', 'get_usage'],
    );
    const input = tools[0]!.inputSchema as unknown as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
      required: string[];
      additionalProperties: boolean;
    };
    assert.deepEqual(Object.keys(input.properties), [
      'markdown',
      'features',
      'output',
      'upload_url',
      'filename',
      'sign',
      'resources',
      'language',
      'idempotency_key',
    ]);
    assert.deepEqual(input.required, ['markdown']);
    assert.equal(input.additionalProperties, false);
    assert.ok(input.properties.features!.properties!.mermaid_appendix);
  });

  it('should return the rendered PDF as an embedded resource and count it in the same usage report', async () => {
    const result = await call(client, 'render_markdown', { markdown: '# Hello from MCP\n\nA paragraph.', filename: 'Grüße.pdf' });
    assert.equal(result.isError, undefined);
    const pdf = embeddedPdf(result);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assert.match(await pdftotext(pdf), /Hello from MCP/);
    const facts = structured(result);
    assert.equal(facts.pages, 1);
    assert.equal(facts.bytes, pdf.byteLength);
    assert.equal(facts.sha256, createHash('sha256').update(pdf).digest('hex'));
    assert.equal(facts.filename, 'Grüße.pdf');
    assert.equal(facts.replay, false);

    const report = structured(await call(client, 'get_usage', {}));
    assert.equal(report.credits_used, 1);
    const api = (await (await usage(service, account.key)).json()) as { credits_used: number; keys: { id: string; credits: number }[] };
    assert.equal(api.credits_used, 1);
    assert.deepEqual(
      api.keys.map((key) => [key.id, key.credits]),
      [[account.keyId, 1]],
    );
    assert.deepEqual(
      reservations(service, account.id).map((row) => row.state),
      ['charged'],
    );
  });

  it('should take the same options as the API: features, output json, language', async () => {
    const result = await call(client, 'render_markdown', {
      markdown: '# Dark\n\n"Quotes" stay straight.',
      features: { theme: 'dark', smart_typography: false },
      output: 'json',
      language: 'en',
    });
    const text = await pdftotext(embeddedPdf(result));
    assert.match(text, /"Quotes" stay straight/);
  });

  it('should apply design front matter, and refuse a bad design value as a render_failed tool error charging nothing', async () => {
    const own = await createAccount(service.store);
    const ownClient = await connect(service, own.key);
    try {
      const markdown =
        '---\npaper: letter\nnumber_headings: true\nheader: "{section}"\nfooter:\n  right: "Page {page} of {pages}"\n---\n\n## Scope\n\nText.\n\n\\newpage\n\n## Method\n';
      const result = await call(ownClient, 'render_markdown', { markdown });
      assert.equal(result.isError, undefined);
      const pdf = embeddedPdf(result);
      assert.deepEqual(
        (await pageSizes(pdf)).map((size) => [size.width, size.height]),
        [
          [612, 792],
          [612, 792],
        ],
      );
      assert.match(await pdftotext(pdf), /1\s+Scope\s+Text\.\s+Page 1 of 2[\s\S]*2\s+Method\s+2\s+Method\s+Page 2 of 2/);
      const refused = await call(ownClient, 'render_markdown', { markdown: '---\norientation: sideways\n---\n\nText.\n' });
      assert.equal(refused.isError, true);
      assert.equal(structured(refused).code, 'render_failed');
      assert.match(String(structured(refused).error), /orientation must be portrait or landscape, not "sideways"/);
      assert.equal(structured(await call(ownClient, 'get_usage', {})).credits_used, 1);
      assert.deepEqual(
        reservations(service, own.id).map((row) => row.state),
        ['charged', 'returned'],
      );
    } finally {
      await ownClient.close();
    }
  });

  it('should replay under one idempotency key at no charge, sharing the key space with POST /v1/render', async () => {
    const other = await createAccount(service.store);
    const otherClient = await connect(service, other.key);
    try {
      const first = await call(otherClient, 'render_markdown', { markdown: '# Once', idempotency_key: 'mcp-1' });
      const second = await call(otherClient, 'render_markdown', { markdown: '# Once', idempotency_key: 'mcp-1' });
      assert.equal(structured(first).replay, false);
      assert.equal(structured(second).replay, true);
      assert.equal(structured(second).sha256, structured(first).sha256);
      const viaApi = await render(service, other.key, { markdown: '# Once' }, { 'Idempotency-Key': 'mcp-1' });
      assert.equal(viaApi.status, 200);
      assert.equal(viaApi.headers.get('x-service-replay'), 'true');
      const mismatch = await call(otherClient, 'render_markdown', { markdown: '# Changed', idempotency_key: 'mcp-1' });
      assert.equal(mismatch.isError, true);
      assert.equal(structured(mismatch).code, 'idempotency_mismatch');
      assert.equal(structured(await call(otherClient, 'get_usage', {})).credits_used, 1);
    } finally {
      await otherClient.close();
    }
  });

  it('should answer refusals as tool errors carrying the SPEC error body, charging nothing', async () => {
    const cases: [Record<string, unknown>, string, string | undefined][] = [
      [{ markdown: '' }, 'empty_document', undefined],
      [{ markdown: '# Hi', colour: 'red' }, 'invalid_request', 'unknown_field'],
      [{ markdown: '# Hi', path: '/tmp/x.pdf' }, 'invalid_request', 'unknown_field'],
      [{ markdown: '# Hi', features: { theme: 'sepia' } }, 'invalid_request', 'invalid_field'],
      [{ markdown: '# Hi', idempotency_key: '' }, 'invalid_request', 'invalid_idempotency_key'],
      [{ markdown: '# Hi', output: 'upload', upload_url: 'https://storage.example.com/a.pdf' }, 'render_unavailable', undefined],
      [{ markdown: 42 }, 'invalid_request', 'invalid_field'],
    ];
    const fresh = await createAccount(service.store);
    const freshClient = await connect(service, fresh.key);
    try {
      for (const [args, code, reason] of cases) {
        const result = await call(freshClient, 'render_markdown', args);
        assert.equal(result.isError, true, JSON.stringify(args));
        const body = structured(result);
        assert.equal(body.code, code, JSON.stringify(args));
        assert.equal(body.reason, reason);
        assert.equal(typeof body.error, 'string');
        assert.match((result.content[0] as { text: string }).text, new RegExp(`^${code}: `));
      }
      const badPeriod = await call(freshClient, 'get_usage', { period: '0' });
      assert.deepEqual([structured(badPeriod).code, structured(badPeriod).reason], ['invalid_request', 'invalid_period']);
      assert.deepEqual(reservations(service, fresh.id), []);
    } finally {
      await freshClient.close();
    }
  });

  it('should report a renderer bound under the metadata key service/renderer_bound, returning the document', async () => {
    const result = await call(client, 'render_markdown', { markdown: `${'>'.repeat(200)} deep` });
    assert.equal(result.isError, true);
    assert.deepEqual(result._meta, { 'service/renderer_bound': 'DepthLimit' });
    const body = structured(result);
    assert.deepEqual([body.code, body.reason, body.renderer_bound], ['payload_too_large', 'preparation_limit', 'DepthLimit']);
    assert.deepEqual(reservations(service, account.id).at(-1), { state: 'returned', error_code: 'payload_too_large', pages: null });
  });

  it('should hold the account to its quota, and count each /mcp POST against its requests per minute together with the API', async () => {
    const limited = await createAccount(service.store, { overrides: { requests_per_min: 4, documents: 1 } });
    assert.equal((await render(service, limited.key, '# Via the API')).status, 200);
    // Connecting is two POSTs (initialize, then the initialized notification): three requests so far.
    const limitedClient = await connect(service, limited.key);
    try {
      // The fourth request: its render_markdown call is not counted a second time by the render flow.
      const exhausted = await call(limitedClient, 'render_markdown', { markdown: '# Via MCP' });
      assert.equal(structured(exhausted).code, 'quota_exhausted');
      // The fifth is refused as an HTTP request, before its body is read.
      await assert.rejects(call(limitedClient, 'render_markdown', { markdown: '# Again' }), /rate_limited/);
      const refused = await mcpPost(service, limited.key, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('cache-control'), 'no-store');
      assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      const body = await errorBody(refused);
      assert.equal(body.code, 'rate_limited');
      assert.deepEqual(body.limit, { name: 'requests_per_min', value: 4, plan: 'starter' });
    } finally {
      await limitedClient.close();
    }
  });

  it('should refuse a Free key past its 5 requests per minute on /mcp with 429 rate_limited and Retry-After', async () => {
    const free = await createAccount(service.store, { plan: 'free', overrides: { requests_per_min: PLANS.free.limits.requests_per_min } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await mcpPost(service, free.key, { jsonrpc: '2.0', id: i, method: 'tools/list' });
      statuses.push(response.status);
      if (response.status === 429) {
        assert.ok(Number(response.headers.get('retry-after')) >= 1);
        assert.deepEqual((await errorBody(response)).limit, { name: 'requests_per_min', value: 5, plan: 'free' });
      } else {
        await response.arrayBuffer();
      }
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });

  it('should count a batch of MCP messages as one request per message', async () => {
    const batched = await createAccount(service.store, { overrides: { requests_per_min: 3 } });
    const batch = (ids: number[]) => ids.map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const first = await mcpPost(service, batched.key, batch([1, 2]));
    assert.equal(first.status, 200);
    assert.equal(((await first.json()) as unknown[]).length, 2);
    const second = await mcpPost(service, batched.key, batch([3, 4]));
    assert.equal(second.status, 429);
    assert.equal((await errorBody(second)).code, 'rate_limited');
  });

  it("should share the account's concurrent renders with the API", async () => {
    const gated = await startService({ standIn: true });
    try {
      const single = await createAccount(gated.store, { overrides: { concurrency: 1 } });
      const gate = path.join(gated.dir, 'open');
      const running = render(gated, single.key, `gate:${gate}\n# Slow`);
      // The API render holds the account's one slot once its document is reserved.
      while (reservations(gated, single.id).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const mcp = await connect(gated, single.key);
      try {
        const refused = await call(mcp, 'render_markdown', { markdown: '# Meanwhile' });
        assert.deepEqual(structured(refused).limit, { name: 'concurrency', value: 1, plan: 'starter' });
      } finally {
        await mcp.close();
      }
      writeFileSync(gate, '');
      assert.equal((await running).status, 200);
    } finally {
      await gated.close();
    }
  });

  it('should refuse /mcp without a valid key like the API: 401 with WWW-Authenticate, and the SDK client cannot connect', async () => {
    const response = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await errorBody(response)).code, 'unauthorized');
    await assert.rejects(connect(service, 'quire_not_a_key'));

    const blocked = await createAccount(service.store);
    await service.store.updateAccount(blocked.id, { blocked: true });
    const refused = await fetch(`${service.url}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${blocked.key}` }, body: '{}' });
    assert.equal(refused.status, 403);
    assert.equal((await errorBody(refused)).code, 'account_blocked');
  });

  it('should answer GET and DELETE on /mcp 405 with Allow: POST (no event stream, no sessions)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${service.url}/mcp`, { method, headers: { Authorization: `Bearer ${account.key}` } });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    }
  });

  it('should log one line per MCP request with the tool, the account and the code', async () => {
    const before = service.logs.length;
    await call(client, 'render_markdown', { markdown: '' });
    const lines = service.logs.slice(before).filter((line) => line.event === 'request' && line.tool === 'render_markdown');
    assert.equal(lines.length, 1);
    assert.deepEqual([lines[0]!.route, lines[0]!.account, lines[0]!.code, lines[0]!.status], ['/mcp', account.id, 'empty_document', 200]);
  });
});
