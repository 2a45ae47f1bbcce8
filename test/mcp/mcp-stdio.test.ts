/** `quire mcp` over stdio: the real process, driven by the SDK's own client, against a real database. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { pdftotext } from '../support/pdf-tools.js';
import { createAccount, ManualClock, type TestAccount } from '../service/harness.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const run = promisify(execFile);

describe('quire mcp (stdio)', () => {
  let dir: string;
  let dbFile: string;
  let store: SqliteStore;
  let account: TestAccount;
  let client: Client;
  let stderr = '';

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quire-mcp-'));
    dbFile = path.join(dir, 'quire.db');
    store = SqliteStore.open(dbFile, new ManualClock(Date.now()));
    account = await createAccount(store, { plan: 'starter' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', '--db', dbFile],
      env: { ...(process.env as Record<string, string>), QUIRE_API_KEY: account.key, QUIRE_WORKERS: '1' },
      cwd: dir,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'quire-test', version: '1' });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('should offer path as well as the API fields on stdio', async () => {
    const { tools } = await client.listTools();
    const properties = Object.keys((tools[0]!.inputSchema as { properties: object }).properties);
    assert.ok(properties.includes('path'));
    assert.ok(properties.includes('idempotency_key'));
  });

  it('should write the PDF to the path the client names, relative to the server\'s folder', async () => {
    const result = await call('render_markdown', { markdown: '# Written by stdio\n\nHello.', path: 'out/../written.pdf' });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    const file = path.join(dir, 'written.pdf');
    assert.equal(result.structuredContent!.path, file);
    assert.match(await pdftotext(readFileSync(file)), /Written by stdio/);
  });

  it('should return the PDF as an embedded resource when no path is named', async () => {
    const result = await call('render_markdown', { markdown: '# Embedded', features: { theme: 'dark' } });
    const resource = result.content.find((item): item is EmbeddedResource => item.type === 'resource');
    assert.ok(resource && 'blob' in resource.resource);
    assert.match(await pdftotext(Buffer.from(resource.resource.blob, 'base64')), /Embedded/);
  });

  it('should count the renders in the account\'s usage, in the shared database', async () => {
    const report = (await call('get_usage', {})).structuredContent!;
    assert.equal(report.credits_used, 2);
    const usage = await store.usage(account.id);
    assert.equal(usage!.period.used, 2);
    assert.deepEqual(usage!.keys.map((key) => [key.id, key.credits]), [[account.keyId, 2]]);
  });

  it('should refuse a path in a folder that does not exist before spending anything', async () => {
    const result = await call('render_markdown', { markdown: '# Nowhere', path: 'missing/folder/x.pdf' });
    assert.equal(result.isError, true);
    assert.deepEqual([result.structuredContent!.code, result.structuredContent!.reason], ['invalid_request', 'invalid_path']);
    assert.equal(existsSync(path.join(dir, 'missing')), false);
    assert.equal((await store.usage(account.id))!.period.used, 2);
  });

  it('should report a renderer bound under service/renderer_bound', async () => {
    const result = await call('render_markdown', { markdown: `${'- '.repeat(100)}x` });
    assert.equal(result.isError, true);
    assert.equal(result._meta?.['service/renderer_bound'], 'DepthLimit');
  });

  it('should log JSON lines on stderr only, one per tool call, never the key or the document', () => {
    const lines = stderr.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(lines.some((line) => line.event === 'mcp_stdio_ready'));
    const calls = lines.filter((line) => line.event === 'tool_call');
    assert.deepEqual(
      calls.map((line) => [line.tool, line.account, line.code, line.pages]),
      [
        ['render_markdown', account.id, null, 1],
        ['render_markdown', account.id, null, 1],
        ['get_usage', account.id, null, undefined],
        ['render_markdown', null, 'invalid_request', undefined],
        ['render_markdown', account.id, 'payload_too_large', undefined],
      ],
    );
    assert.doesNotMatch(stderr, new RegExp(account.key));
    assert.doesNotMatch(stderr, /Written by stdio/);
  });

  it('should refuse to start without QUIRE_API_KEY, or with a key that is not valid', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, QUIRE_WORKERS: '1' };
    delete env.QUIRE_API_KEY;
    await assert.rejects(run(process.execPath, [MAIN, 'mcp', '--db', dbFile], { env }), (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 2);
      assert.match(error.stderr, /QUIRE_API_KEY/);
      return true;
    });
    await assert.rejects(run(process.execPath, [MAIN, 'mcp', '--db', dbFile], { env: { ...env, QUIRE_API_KEY: 'quire_wrong' } }), (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /QUIRE_API_KEY: A valid API key is required/);
      return true;
    });
  });
});
