/** `quire mcp` over stdio: the real process, driven by the SDK's own client, against a real database. */
import { includedDocuments } from '../../../src/limits/plans.js';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js';
import { KIB, MIB } from '../../../src/limits/plans.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { pdftotext } from '../../support/pdf-tools.js';
import { createAccount, ManualClock, type TestAccount } from '../../support/service-harness.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
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
    store = SqliteStore.open(dbFile, new ManualClock(Date.now()), { included: includedDocuments });
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

  it("should write the PDF to the path the client names, relative to the server's folder", async () => {
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

  it("should count the renders in the account's usage, in the shared database", async () => {
    const report = (await call('get_usage', {})).structuredContent!;
    assert.equal(report.credits_used, 2);
    const usage = await store.usage(account.id);
    assert.equal(usage!.period.used, 2);
    assert.deepEqual(
      usage!.keys.map((key) => [key.id, key.credits]),
      [[account.keyId, 2]],
    );
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
    const lines = stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
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
    await assert.rejects(
      run(process.execPath, [MAIN, 'mcp', '--db', dbFile], { env: { ...env, QUIRE_API_KEY: 'quire_wrong' } }),
      (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /QUIRE_API_KEY: A valid API key is required/);
        return true;
      },
    );
  });
});

/**
 * The stdio reader is bounded by the deployment's body ceiling, the HTTP door's: the real process,
 * its stdin written byte for byte — a line longer than any client would send, left unfinished
 * for a while — and its answers read line by line from stdout.
 */
describe('quire mcp (stdio): the bounded line reader', () => {
  let dir: string;
  let store: SqliteStore;
  let account: TestAccount;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quire-mcp-lines-'));
    store = SqliteStore.open(path.join(dir, 'quire.db'), new ManualClock(Date.now()), { included: includedDocuments });
    account = await createAccount(store, { plan: 'starter' });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `quire mcp` with the environment given, initialized, its stdout read as JSON lines. */
  async function startMcp(env: Record<string, string>): Promise<McpProcess> {
    const child = spawn(process.execPath, [MAIN, 'mcp', '--db', path.join(dir, 'quire.db')], {
      env: { ...(process.env as Record<string, string>), QUIRE_API_KEY: account.key, QUIRE_WORKERS: '1', ...env },
      cwd: dir,
    });
    const mcp = new McpProcess(child);
    await mcp.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lines', version: '1' } },
    });
    assert.equal((await mcp.next()).id, 0);
    await mcp.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return mcp;
  }

  it('should drop a line past the ceiling as it streams, answer it with an error naming the limit, and read the next line', async () => {
    const mcp = await startMcp({ QUIRE_MAX_BODY_MB: '2' });
    try {
      const line = 40 * MIB;
      const before = mcp.resetPeakMemory();
      // The line's start, then the rest of its 40 MiB in pieces, a pause after each: no newline for a while.
      await mcp.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"');
      const piece = 'a'.repeat(MIB);
      for (let sent = 0; sent < line; sent += MIB) {
        await mcp.write(piece);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await mcp.write('"}}}\n');
      await mcp.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

      const refusal = await mcp.next();
      assert.equal(refusal.id, null);
      const error = refusal.error as { code: number; message: string; data: Record<string, unknown> };
      assert.equal(error.code, -32600);
      assert.match(error.message, /at most 2048 KB/);
      assert.deepEqual(
        [error.data.code, error.data.reason, error.data.limit],
        ['payload_too_large', 'body_limit', { name: 'body_kb', value: 2 * KIB, plan: null }],
      );
      const listed = await mcp.next();
      assert.equal(listed.id, 2);
      assert.ok((listed.result as { tools: unknown[] }).tools.length > 0);

      // The line was never held: the process's peak memory rose by far less than the line.
      const peak = mcp.peakMemory();
      assert.ok(peak - before < line / 5, `peak memory rose by ${Math.round((peak - before) / MIB)} MiB`);
    } finally {
      await mcp.stop();
    }
  });

  it("should read a line as long as the HTTP door reads a body, past the SDK reader's 10 MiB", async () => {
    const mcp = await startMcp({});
    try {
      const pad = 'b'.repeat(12 * MIB);
      await mcp.send({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad } } });
      await mcp.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
      assert.deepEqual(await mcp.next(), { jsonrpc: '2.0', id: 1, result: {} });
      assert.deepEqual(await mcp.next(), { jsonrpc: '2.0', id: 2, result: {} });
    } finally {
      await mcp.stop();
    }
  });

  it('should answer a line that is not JSON -32700 and one that is not JSON-RPC -32600, and go on', async () => {
    const mcp = await startMcp({});
    try {
      await mcp.write('{"jsonrpc": "2.0", "id": 1, "method": \n');
      await mcp.write('\r\n');
      await mcp.write('{"hello": "world"}\r\n');
      await mcp.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      const notJson = await mcp.next();
      assert.deepEqual([notJson.id, (notJson.error as { code: number }).code], [null, -32700]);
      const notRpc = await mcp.next();
      assert.deepEqual([notRpc.id, (notRpc.error as { code: number }).code], [null, -32600]);
      assert.deepEqual(await mcp.next(), { jsonrpc: '2.0', id: 3, result: {} });
      // The end of stdin ends the session, and the process with it.
      assert.equal(await mcp.stop(), 0);
    } finally {
      await mcp.stop();
    }
  });
});

/** A running `quire mcp`: writes to its stdin, its answers one JSON line at a time. */
class McpProcess {
  private readonly answers: Record<string, unknown>[] = [];
  private waiting: (() => void) | undefined;
  private pending = '';
  private stderr = '';

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.pending += chunk;
      for (let newline = this.pending.indexOf('\n'); newline >= 0; newline = this.pending.indexOf('\n')) {
        this.answers.push(JSON.parse(this.pending.slice(0, newline)) as Record<string, unknown>);
        this.pending = this.pending.slice(newline + 1);
      }
      this.waiting?.();
    });
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    child.on('exit', () => this.waiting?.());
    // Writes after an exit fail through their callbacks.
    child.stdin.on('error', () => undefined);
  }

  write(text: string): Promise<void> {
    return new Promise((resolve, reject) => this.child.stdin.write(text, (error) => (error ? reject(error) : resolve())));
  }

  send(message: Record<string, unknown>): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  /** The next answer, within 30 s. */
  async next(): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 30_000;
    while (this.answers.length === 0) {
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`no answer (exit ${this.child.exitCode}); stderr: ${this.stderr.slice(-2000)}`);
      }
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 500);
      });
    }
    return this.answers.shift()!;
  }

  /** Resets the process's peak resident memory to what it holds now (Linux clear_refs), and returns that, in bytes. */
  resetPeakMemory(): number {
    writeFileSync(`/proc/${this.child.pid}/clear_refs`, '5');
    return this.status('VmRSS');
  }

  /** The process's peak resident memory since the reset, in bytes. */
  peakMemory(): number {
    return this.status('VmHWM');
  }

  private status(field: string): number {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'));
    assert.ok(match, `no ${field} in /proc/${this.child.pid}/status`);
    return Number(match[1]) * KIB;
  }

  /** Closes the process's stdin, as a client does at the end of its session: its exit code, or its signal once killed after 10 s. */
  async stop(): Promise<number | string | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = new Promise<number | string | null>((resolve) => this.child.once('exit', (code, signal) => resolve(code ?? signal)));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const outcome = await exited;
    clearTimeout(timer);
    return outcome;
  }
}
