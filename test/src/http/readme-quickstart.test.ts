/**
 * The README's quick start, run as written: the shell commands of the fenced blocks under its
 * "Quick start" heading, against `quire serve` started here on loopback in place of `npm start`
 * (its address put where the README says localhost:8080). The account command runs for real on
 * the service's database, and its key goes where the README says `quire_…`. What they make must
 * be a real PDF of the README; and an error must not leave JSON where the PDF should be.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startChildService, type ChildService } from '../net/support/child-service.js';
import { pdfinfo, pdftotext } from '../../support/pdf-tools.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const HEADING = 'Quick start';
const FENCE = /^(`{3,}|~{3,})\s*(\S*)/;
const SHELLS = new Set(['sh', 'bash', 'shell', 'console']);

/**
 * The commands of the shell blocks under the heading, up to the next heading of its level or
 * above: lines ending in `\`, `|`, `&&` or `||` continue onto the next.
 */
function quickStartCommands(markdown: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^#{1,6} ${HEADING}\\s*$`).test(line));
  assert.ok(start >= 0, `README.md has a "${HEADING}" heading`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const commands: string[] = [];
  let fence: { marker: string; shell: boolean } | undefined;
  let pending = '';
  for (const line of lines.slice(start + 1)) {
    const opening = FENCE.exec(line);
    if (fence) {
      if (opening && line.trim().startsWith(fence.marker) && opening[2] === '') {
        fence = undefined;
        continue;
      }
      if (!fence.shell || line.trim() === '') continue;
      pending += `${line}\n`;
      if (!/(\\|\||&&)\s*$/.test(line)) {
        commands.push(pending.trim());
        pending = '';
      }
      continue;
    }
    if (opening) fence = { marker: opening[1]!, shell: SHELLS.has(opening[2]!) };
    else if ((/^(#+) /.exec(line)?.[1]?.length ?? 7) <= level) break;
  }
  assert.equal(pending, '', 'the last command is complete');
  return commands;
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

describe("the README's quick start, run as written", () => {
  let service: ChildService;
  let work: string;
  let commands: string[];

  before(async () => {
    commands = quickStartCommands(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    service = await startChildService({});
    // A folder like the repository's for the commands: the README beside `bin/`.
    work = mkdtempSync(path.join(tmpdir(), 'quire-quickstart-'));
    copyFileSync(path.join(ROOT, 'README.md'), path.join(work, 'README.md'));
    symlinkSync(path.join(ROOT, 'bin'), path.join(work, 'bin'));
  });
  after(async () => {
    await service.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Runs one command in bash, in the work folder, with no setting of this machine but PATH (no curlrc, no proxy). */
  function sh(command: string): Promise<Ran> {
    return new Promise((resolve) => {
      execFile(
        'bash',
        ['-o', 'pipefail', '-c', command],
        { cwd: work, env: { PATH: process.env.PATH ?? '', HOME: work, QUIRE_DB: service.dbFile }, timeout: 120_000, encoding: 'utf8' },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
  }

  /** The quick start's commands after `npm start` and the account, with this service's address and `key`. */
  function requests(key: string): string[] {
    return commands
      .filter((command) => !/^npm start\b/.test(command) && !/\bquire account create\b/.test(command))
      .map((command) => command.replaceAll('http://localhost:8080', service.url).replaceAll('quire_…', key));
  }

  it('should start the service, make an account and render with its key', () => {
    assert.ok(
      commands.some((command) => /^npm start\b/.test(command)),
      'the quick start starts the service (here: quire serve on loopback)',
    );
    assert.ok(commands.some((command) => /\bquire account create\b/.test(command)));
    const rendering = requests('quire_…');
    assert.ok(rendering.length > 0, 'the quick start renders something');
    for (const command of rendering) {
      assert.ok(command.includes(service.url), `${command}\nspeaks to the service`);
      assert.match(command, /\bcurl\b[^\n]*--fail/, `${command}\ntells curl to fail on an error`);
    }
  });

  it('should render the README to a real PDF', async () => {
    const account = await sh(commands.find((command) => /\bquire account create\b/.test(command))!);
    assert.equal(account.code, 0, account.stderr);
    const { key } = JSON.parse(account.stdout) as { key: string };
    assert.match(key, /^quire_/);

    for (const command of requests(key)) {
      const ran = await sh(command);
      assert.equal(ran.code, 0, `${command}\n${ran.stderr}`);
    }
    const pdf = readFileSync(path.join(work, 'README.pdf'));
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const info = await pdfinfo(pdf);
    assert.ok(Number(info.Pages) >= 2, `pages: ${info.Pages}`);
    const text = await pdftotext(pdf, { first: 1, last: 1 });
    assert.match(text, /Markdown to beautiful, accessible PDF/);
    assert.match(service.stderr(), /"event":"request"[^\n]*"route":"\/v1\/render","status":200/);
  });

  it('should leave no JSON in the PDF file when the service refuses (an unknown key)', async () => {
    rmSync(path.join(work, 'README.pdf'), { force: true });
    for (const command of requests('quire_unknown')) {
      const ran = await sh(command);
      assert.notEqual(ran.code, 0, `${command}\nexits non-zero on 401`);
      assert.match(ran.stderr, /401/);
    }
    const file = path.join(work, 'README.pdf');
    assert.ok(!existsSync(file) || readFileSync(file).length === 0, 'no error body written as README.pdf');
  });
});
