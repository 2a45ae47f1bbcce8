/**
 * The single executable: built by scripts/build-binary.mjs from this build's JavaScript, copied
 * alone into an empty folder, then run with a fresh home (so its cache starts empty): a render,
 * the admin commands, a served request and MCP over stdio, with nothing beside it.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { pdftotext } from '../support/pdf-tools.js';

const run = promisify(execFile);
const BUILD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPO = path.resolve(BUILD, '..');

describe('the single executable', () => {
  let work: string;
  let folder: string;
  let binary: string;
  let env: NodeJS.ProcessEnv;
  let server: ChildProcess | undefined;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'quire-binary-'));
    const built = path.join(work, 'build', 'quire');
    await run(process.execPath, [path.join(REPO, 'scripts/build-binary.mjs'), '--dist', BUILD, '--out', built], { cwd: REPO, maxBuffer: 1 << 24 });
    folder = path.join(work, 'empty');
    mkdirSync(folder);
    binary = path.join(folder, 'quire');
    copyFileSync(built, binary);
    rmSync(path.join(work, 'build'), { recursive: true, force: true });
    const home = path.join(work, 'home');
    mkdirSync(home);
    env = { PATH: '/usr/bin:/bin', HOME: home, QUIRE_WORKERS: '1' };
  });
  after(() => {
    server?.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  it('should be one Linux executable of reasonable size', () => {
    const size = statSync(binary).size;
    assert.ok(size > 50 * 2 ** 20 && size < 200 * 2 ** 20, `${size} bytes`);
    assert.equal(readFileSync(binary).subarray(0, 4).toString('latin1'), '\x7fELF');
  });

  it('should render a document with front matter, styled HTML, math, emoji, code and a diagram from an empty folder', async () => {
    writeFileSync(
      path.join(work, 'doc.md'),
      '---\ntitle: Built alone\n---\n\n# From one file\n\n<p style="color: #cf222e">Styled HTML</p>\n\nEnergy $E = mc^2$ :rocket:\n\n```python\nprint("hi")\n```\n\n```mermaid\ngraph LR\n  Start --> Done\n```\n',
    );
    const started = performance.now();
    const { stderr } = await run(binary, ['render', path.join(work, 'doc.md'), '-o', path.join(work, 'doc.pdf')], { cwd: folder, env });
    const firstMs = performance.now() - started;
    assert.match(stderr, /wrote .*doc\.pdf \(1 page\)/);
    const text = await pdftotext(readFileSync(path.join(work, 'doc.pdf')));
    for (const expected of ['Built alone', 'From one file', 'Styled HTML', 'print("hi")', 'Start', 'Done', '🚀'])
      assert.ok(text.includes(expected), `${expected} in ${text}`);
    assert.deepEqual(readdirSync(folder), ['quire']);
    const warmStarted = performance.now();
    await run(binary, ['--help'], { cwd: folder, env });
    process.stderr.write(`# binary: first render ${firstMs.toFixed(0)} ms (extraction included), --help ${(performance.now() - warmStarted).toFixed(0)} ms\n`);
  });

  it('should run the admin commands, serve a render and answer health and metrics', async () => {
    const db = path.join(folder, 'quire.db');
    const created = JSON.parse((await run(binary, ['account', 'create', '--email', 'one@example.com', '--db', db], { cwd: folder, env })).stdout) as {
      account: string;
      key: string;
    };
    await run(binary, ['grant', created.account, '--documents', '5', '--db', db], { cwd: folder, env });

    server = spawn(binary, ['serve', '--port', '0', '--host', '127.0.0.1', '--db', db], { cwd: folder, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const port = await new Promise<number>((resolve, reject) => {
      let log = '';
      server!.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const listening = /"event":"listening".*?"port":(\d+)/.exec(log);
        if (listening) resolve(Number(listening[1]));
      });
      server!.once('exit', (code) => reject(new Error(`serve exited ${code}: ${log}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    const response = await fetch(`${url}/v1/render`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${created.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ markdown: '# Served by the binary', output: 'json' }),
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { pdf: string; pages: number };
    assert.match(await pdftotext(Buffer.from(body.pdf, 'base64')), /Served by the binary/);
    const usage = (await (await fetch(`${url}/v1/usage`, { headers: { Authorization: `Bearer ${created.key}` } })).json()) as {
      credits_used: number;
      credits_granted: number;
    };
    assert.deepEqual([usage.credits_used, usage.credits_granted], [1, 5]);
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    assert.match(await (await fetch(`${url}/metrics`)).text(), /quire_documents_charged_total 1/);

    server.kill('SIGTERM');
    assert.equal(await new Promise((resolve) => server!.once('exit', resolve)), 0);
    server = undefined;
  });

  it('should run the MCP server on stdio', async () => {
    const db = path.join(folder, 'quire.db');
    const { stdout } = await run(binary, ['account', 'create', '--email', 'mcp@example.com', '--db', db], { cwd: folder, env });
    const { key } = JSON.parse(stdout) as { key: string };
    const client = new Client({ name: 'binary-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: binary,
        args: ['mcp', '--db', db],
        cwd: folder,
        env: { ...(env as Record<string, string>), QUIRE_API_KEY: key },
        stderr: 'ignore',
      }),
    );
    try {
      const result = await client.callTool({ name: 'render_markdown', arguments: { markdown: '# Over stdio', path: 'stdio.pdf' } });
      assert.equal(result.isError, undefined);
      assert.match(await pdftotext(readFileSync(path.join(folder, 'stdio.pdf'))), /Over stdio/);
    } finally {
      await client.close();
    }
  });
});
