/**
 * The command line's input hygiene, as a user meets it through bin/quire in a process of its
 * own: what is not Markdown text is refused naming the file (and where), other encodings are read
 * when named, front matter mistakes name the file, line and key meant, strict image failures name
 * the image, every command answers --help and --version, and remote images are bounded as a local
 * tool's (a README of 300 avatars, served by a loopback server of this test, with the test-only
 * loopback switch: nothing connects outside loopback).
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../net/support/test-server.js';
import { FIXTURES } from '../../support/fixtures.js';
import { pdfFile, pdfinfo, pdftotext } from '../../support/pdf-tools.js';

const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const QUIRE = path.join(REPOSITORY, 'bin/quire');
const VERSION = (JSON.parse(readFileSync(path.join(REPOSITORY, 'package.json'), 'utf8')) as { version: string }).version;
const PNG = readFileSync(path.join(FIXTURES, 'images/dot.png'));
/** A command that should answer at once; one still running after this is killed (a server started by mistake). */
const ANSWER_LIMIT_MS = 30_000;

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

function quire(args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Run> {
  // QUIRE_DB* unset: a command that opened the database by mistake would not find the developer's.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(QUIRE_DB|QUIRE_API_KEY)/.test(name)));
  const child = spawn(QUIRE, args, { env: { ...inherited, ...options.env }, ...(options.cwd && { cwd: options.cwd }) });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? '');
  const limit = setTimeout(() => child.kill('SIGKILL'), ANSWER_LIMIT_MS);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(limit);
      resolve({ status, stdout: Buffer.concat(stdout), stderr });
    }),
  );
}

/** The `quire: …` lines of standard error that are not warnings or the `wrote` line. */
function errorLines(run: Run): string[] {
  return run.stderr.split('\n').filter((line) => line !== '');
}

function warnings(run: Run): string[] {
  return run.stderr.split('\n').filter((line) => line.startsWith('quire: warning: '));
}

/** What a shell command writes to a terminal (util-linux's script(1) gives it one). */
function inTerminal(command: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...env }, cwd });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('latin1')));
    child.on('close', () => resolve(out));
  });
}

async function imageCount(pdf: Uint8Array): Promise<number> {
  const { stdout } = await promisify(execFile)('pdfimages', ['-list', pdfFile(pdf)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split('\n')
    .slice(2)
    .filter((line) => line.trim().split(/\s+/)[2] === 'image').length;
}

describe('quire render: input that is not Markdown text', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-hygiene-'));

  it('should refuse a binary file, naming it, and write no PDF', async () => {
    const file = path.join(dir, 'photo.md');
    writeFileSync(file, PNG);
    const run = await quire(['render', file]);
    assert.equal(run.status, 1);
    assert.deepEqual(errorLines(run), [`quire: ${file} is not a text file (a NUL byte at offset ${PNG.indexOf(0)}): quire render reads Markdown text`]);
    assert.equal(existsSync(path.join(dir, 'photo.pdf')), false);
  });

  it('should refuse bytes that are mostly control characters, with no NUL among them, and binary standard input', async () => {
    const file = path.join(dir, 'controls.md');
    writeFileSync(file, Buffer.from(Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? 0x01 + (i % 7) : 0x41 + (i % 26)))));
    const run = await quire(['render', file, '-o', path.join(dir, 'controls.pdf')]);
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /^quire: .*controls\.md is not a text file \(\d+ of its first 400 bytes are control characters\): quire render reads Markdown text\n$/,
    );
    assert.equal(existsSync(path.join(dir, 'controls.pdf')), false);
    const piped = await quire(['render', '-', '-o', '-'], { input: PNG });
    assert.equal(piped.status, 1);
    assert.match(piped.stderr, /^quire: standard input is not a text file \(a NUL byte at offset \d+\)/);
    assert.equal(piped.stdout.length, 0);
  });

  it('should refuse bytes that are not UTF-8 with the file, line, column and byte offset of the first, and suggest --encoding', async () => {
    const file = path.join(dir, 'latin.md');
    // "Café" in Latin-1 on line 3: é is 0xE9, followed by a line feed.
    writeFileSync(file, Buffer.concat([Buffer.from('# Menu\n\nCaf'), Buffer.from([0xe9]), Buffer.from('\nCrème\n', 'latin1')]));
    const run = await quire(['render', file]);
    assert.equal(run.status, 1);
    const offset = '# Menu\n\nCaf'.length;
    assert.deepEqual(errorLines(run), [
      `quire: ${file}:3:4: not valid UTF-8 at byte offset ${offset} (0xE9, then 0x0A); a file in another encoding needs --encoding, such as --encoding windows-1252 (or latin1, utf-16le, …)`,
    ]);
    assert.equal(existsSync(path.join(dir, 'latin.pdf')), false);
    // After valid multi-byte characters, the column counts characters, not bytes.
    const later = path.join(dir, 'later.md');
    writeFileSync(later, Buffer.concat([Buffer.from('Ünïcödé first\nthen — ü '), Buffer.from([0xc3, 0x28]), Buffer.from(' broken\n')]));
    const broken = await quire(['render', later]);
    assert.equal(broken.status, 1);
    assert.match(
      broken.stderr,
      new RegExp(
        `^quire: ${later.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:10: not valid UTF-8 at byte offset ${Buffer.byteLength('Ünïcödé first\nthen — ü ')} \\(0xC3, then 0x28\\)`,
      ),
    );
  });

  it('should read another encoding named with --encoding (latin1, windows-1252, utf-16le)', async () => {
    const latin = path.join(dir, 'menu.md');
    writeFileSync(latin, Buffer.concat([Buffer.from('# Menu\n\nCaf\xe9 cr\xe8me, 5 ', 'latin1'), Buffer.from([0x80]), Buffer.from('\n')]));
    const windows = await quire(['render', latin, '--encoding', 'windows-1252', '-o', path.join(dir, 'menu.pdf')]);
    assert.equal(windows.status, 0, windows.stderr);
    assert.match(await pdftotext(readFileSync(path.join(dir, 'menu.pdf'))), /Café crème, 5 €/);
    const iso = await quire(['render', latin, '--encoding=latin1', '-o', path.join(dir, 'menu-latin1.pdf')]);
    assert.equal(iso.status, 0, iso.stderr);
    assert.match(await pdftotext(readFileSync(path.join(dir, 'menu-latin1.pdf'))), /Café crème/);

    const wide = path.join(dir, 'wide.md');
    writeFileSync(wide, Buffer.from('# Wide\n\nÜber 16 bits.\n', 'utf16le'));
    const refused = await quire(['render', wide]);
    assert.equal(refused.status, 1);
    assert.match(
      refused.stderr,
      /wide\.md is not a text file in UTF-8: it looks like utf-16le text \(NUL bytes between its letters\); read it with --encoding utf-16le\n$/,
    );
    const read = await quire(['render', wide, '--encoding', 'utf-16le', '-o', path.join(dir, 'wide.pdf')]);
    assert.equal(read.status, 0, read.stderr);
    assert.match(await pdftotext(readFileSync(path.join(dir, 'wide.pdf'))), /Über 16 bits\./);

    const unknown = await quire(['render', wide, '--encoding', 'klingon']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^quire: --encoding: "klingon" is not an encoding this Node\.js can read/);
  });

  it('should read a UTF-8 byte order mark as one (front matter still opens the file), and UTF-16 by its mark', async () => {
    const marked = path.join(dir, 'marked.md');
    writeFileSync(marked, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('---\ntitle: Marked title\n---\n\nBody text.\n')]));
    const run = await quire(['render', marked, '-o', path.join(dir, 'marked.pdf')]);
    assert.equal(run.status, 0, run.stderr);
    const pdf = readFileSync(path.join(dir, 'marked.pdf'));
    assert.equal((await pdfinfo(pdf)).Title, 'Marked title');
    assert.doesNotMatch(await pdftotext(pdf), /title:|\ufeff/);

    const sixteen = path.join(dir, 'sixteen.md');
    writeFileSync(sixteen, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('---\ntitle: Sixteen\n---\n\nWritten by PowerShell.\n', 'utf16le')]));
    const utf16 = await quire(['render', sixteen, '-o', path.join(dir, 'sixteen.pdf')]);
    assert.equal(utf16.status, 0, utf16.stderr);
    assert.equal((await pdfinfo(readFileSync(path.join(dir, 'sixteen.pdf')))).Title, 'Sixteen');
  });
});

describe('quire render: front matter and settings mistakes', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-front-matter-'));

  it('should warn of a misspelt key with the file, its line and the key meant, and still render', async () => {
    const file = path.join(dir, 'report.md');
    writeFileSync(file, '---\ntitle: Report\npapr: letter\nlayout: post\n---\n\nThe report.\n');
    const run = await quire(['render', file]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(warnings(run), [
      `quire: warning: ${file}:3: front matter: unknown key \`papr\` is ignored (did you mean \`paper\`?)`,
      `quire: warning: ${file}:4: front matter: unknown key \`layout\` is ignored`,
    ]);
    const pdf = readFileSync(path.join(dir, 'report.pdf'));
    assert.match(await pdftotext(pdf), /The report\./);
    assert.match((await pdfinfo(pdf))['Page size']!, /\(A4\)/, 'the misspelt paper was not applied');
  });

  it('should name the file, line and column of front matter YAML that cannot be read, and the line of a bad value', async () => {
    const file = path.join(dir, 'broken.md');
    writeFileSync(file, '---\ntitle: Fine\nsubtitle: a: b\n---\n\nText.\n');
    const run = await quire(['render', file]);
    assert.equal(run.status, 1);
    assert.deepEqual(errorLines(run), [`quire: ${file}:3:11: front matter: Nested mappings are not allowed in compact mappings`]);
    assert.equal(existsSync(path.join(dir, 'broken.pdf')), false);

    const bad = path.join(dir, 'bad-value.md');
    writeFileSync(bad, '---\ntitle: T\ntheme: blue\n---\n\nText.\n');
    const value = await quire(['render', bad]);
    assert.equal(value.status, 1);
    assert.deepEqual(errorLines(value), [`quire: ${bad}:3: front matter: theme must be light or dark, not "blue"`]);

    const piped = await quire(['render', '-', '-o', '-'], { input: '---\ntitle: [oops\n---\n\nText\n' });
    assert.equal(piped.status, 1);
    assert.match(piped.stderr, /^quire: standard input:3:1: front matter: Flow sequence/);
  });

  it('should name the joined file whose front matter is broken, with the line in that file', async () => {
    writeFileSync(path.join(dir, 'one.md'), '# One\n');
    writeFileSync(path.join(dir, 'three.md'), '---\ntitle: Three\ntoc_depth: 9\n---\n\n# Three\n');
    const run = await quire(['render', path.join(dir, 'one.md'), path.join(dir, 'three.md'), '-o', path.join(dir, 'joined.pdf')]);
    assert.equal(run.status, 1);
    assert.deepEqual(errorLines(run), [`quire: ${path.join(dir, 'three.md')}:3: front matter: toc_depth must be a whole number from 1 to 6, not 9`]);
  });

  it('should warn of unknown keys of quire.yaml with its lines and of --set with the key meant, and place YAML errors of the settings file', async () => {
    const folder = path.join(dir, 'configured');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'quire.yaml'), 'paper: a5\nnumber_heading: true\n');
    writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nText.\n');
    const run = await quire(['render', path.join(folder, 'notes.md')]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(warnings(run), [
      `quire: warning: ${path.join(folder, 'quire.yaml')}:2: unknown key \`number_heading\` is ignored (did you mean \`number_headings\`?)`,
    ]);
    assert.match((await pdfinfo(readFileSync(path.join(folder, 'notes.pdf'))))['Page size']!, /^419\.\d+ x 595\.\d+ pts/, 'the known key (A5) still applies');

    const set = await quire(['render', path.join(folder, 'notes.md'), '--set', 'papr=letter', '-o', path.join(folder, 'set.pdf')]);
    assert.equal(set.status, 0, set.stderr);
    assert.deepEqual(warnings(set), [
      'quire: warning: --set: unknown key `papr` is ignored (did you mean `paper`?)',
      `quire: warning: ${path.join(folder, 'quire.yaml')}:2: unknown key \`number_heading\` is ignored (did you mean \`number_headings\`?)`,
    ]);

    writeFileSync(path.join(folder, 'quire.yaml'), 'paper: a5\nfooter: {left: x\n');
    const broken = await quire(['render', path.join(folder, 'notes.md')]);
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, new RegExp(`^quire: ${path.join(folder, 'quire.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
  });
});

describe('quire render: remote images as a local tool loads them', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-remote-'));
  const AVATARS = 300;
  let images: TestServer;
  let net: NodeJS.ProcessEnv;
  let readme: string;

  before(async () => {
    images = await startTestServer({
      '/avatar.png': (_request, response) => response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
      '/gone.png': (_request, response) => response.writeHead(404).end(),
    });
    // Plain http to 127.0.0.1: the address policy lets loopback through only with this test-only switch.
    net = { QUIRE_NET_ALLOW_LOOPBACK: '1', QUIRE_NET_RESOURCE_TIMEOUT_S: '10' };
    readme = path.join(dir, 'README.md');
    const avatars = Array.from(
      { length: AVATARS },
      (_, i) => `<img src="http://127.0.0.1:${images.port}/avatar.png?u=${i + 1}" width="32" alt="contributor ${i + 1}">`,
    );
    writeFileSync(readme, `# Contributors\n\nThanks to everyone below.\n\n${avatars.join('\n')}\n`);
  });
  after(async () => {
    await images?.close();
  });

  it(`should render a README of ${AVATARS} remote avatars (no ceiling of 50 by default), quietly when standard error is not a terminal`, async () => {
    const before = images.hits.length;
    const output = path.join(dir, 'README.pdf');
    const run = await quire(['render', readme], { env: net });
    assert.equal(run.status, 0, run.stderr);
    const lines = errorLines(run);
    assert.equal(lines.length, 1, `no warning, no progress lines: ${run.stderr}`);
    assert.match(lines[0]!, /^quire: wrote .*README\.pdf \(\d+ pages?\)$/);
    const asked = new Set(images.hits.slice(before).map((hit) => hit.target));
    assert.equal(asked.size, AVATARS, 'each avatar fetched');
    const pdf = readFileSync(output);
    assert.equal(await imageCount(pdf), AVATARS);
    assert.match(await pdftotext(pdf), /Thanks to everyone below\./);
  });

  it('should report progress in plain lines with --progress, and on a terminal as a status line', async () => {
    const run = await quire(['render', readme, '--progress', '-o', path.join(dir, 'progress.pdf')], { env: net });
    assert.equal(run.status, 0, run.stderr);
    const lines = errorLines(run);
    assert.equal(lines[0], `quire: ${readme}: fetching ${AVATARS} remote images`);
    assert.ok(lines.includes(`quire: ${readme}: ${AVATARS / 4} of ${AVATARS} remote images fetched`), run.stderr);
    assert.match(lines.at(-2)!, new RegExp(`^quire: .*README\\.md: fetched ${AVATARS} remote images in [\\d.]+ s$`));
    assert.match(lines.at(-1)!, /^quire: wrote .*progress\.pdf/);

    // In the folder, so that the status line names README.md and fits the terminal's 80 columns.
    const shown = await inTerminal(`${QUIRE} render README.md -o terminal.pdf`, net, dir);
    assert.match(shown, new RegExp(`\\r\\x1b\\[2Kquire: README\\.md: fetching remote images, \\d+ of ${AVATARS} done`));
    assert.match(shown, /quire: wrote terminal\.pdf/);
  });

  it('should hold a document to --max-remote and --max-remote-mb when given, naming the option', async () => {
    const count = await quire(['render', readme, '--max-remote', '100', '-o', path.join(dir, 'hundred.pdf')], { env: net });
    assert.equal(count.status, 1);
    assert.deepEqual(errorLines(count), [
      'quire: the document links more than 100 remote images, the most --max-remote allows: raise it, or leave it out for no limit',
    ]);
    assert.equal(existsSync(path.join(dir, 'hundred.pdf')), false);
    const enough = await quire(['render', readme, '--max-remote', String(AVATARS), '-o', path.join(dir, 'enough.pdf')], { env: net });
    assert.equal(enough.status, 0, enough.stderr);

    const bytes = await quire(['render', readme, '--max-remote-mb', '0.01', '-o', path.join(dir, 'small.pdf')], { env: net });
    assert.equal(bytes.status, 1);
    assert.deepEqual(errorLines(bytes), ["quire: the document's remote images come to more than 0.01 MB together: allow more with --max-remote-mb N"]);
    const refused = await quire(['render', readme, '--max-remote', 'many']);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /^quire: --max-remote takes a whole number above 0, not "many"\n$/);
  });

  it('should name the image that failed under --resources strict: its URL, or its path', async () => {
    const file = path.join(dir, 'gone.md');
    writeFileSync(file, `Before ![gone](http://127.0.0.1:${images.port}/gone.png) after.\n`);
    const remote = await quire(['render', file, '--resources', 'strict'], { env: net });
    assert.equal(remote.status, 1);
    assert.deepEqual(errorLines(remote), [
      `quire: image 1 (http://127.0.0.1:${images.port}/gone.png) could not be loaded: the server answered 404 (--resources strict)`,
    ]);
    assert.equal(existsSync(path.join(dir, 'gone.pdf')), false);

    const local = path.join(dir, 'local.md');
    writeFileSync(local, '![logo](images/logo.png)\n\n![missing](images/missing.png)\n');
    mkdirSync(path.join(dir, 'images'));
    writeFileSync(path.join(dir, 'images/logo.png'), PNG);
    const missing = await quire(['render', local, '--resources', 'strict']);
    assert.equal(missing.status, 1);
    assert.deepEqual(errorLines(missing), ['quire: image 2 (images/missing.png) could not be loaded: no such file (--resources strict)']);
  });
});

describe('quire --help and --version on every command', () => {
  const COMMANDS = ['render', 'serve', 'mcp', 'account', 'key', 'grant', 'cert'];

  it('should print the version with --version and -v, on the command and every sub-command', async () => {
    for (const args of [
      ['--version'],
      ['-v'],
      ...COMMANDS.flatMap((command) => [
        [command, '--version'],
        [command, '-v'],
      ]),
      ['account', 'create', '--version'],
    ]) {
      const run = await quire(args);
      assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout.toString(), `quire ${VERSION}\n`, args.join(' '));
      assert.equal(run.stderr, '', args.join(' '));
    }
  });

  it("should print each command's own usage with --help and -h, opening nothing (no server, no database)", async () => {
    for (const command of COMMANDS) {
      for (const flag of ['--help', '-h']) {
        const run = await quire([command, flag], { cwd: tmpdir() });
        assert.equal(run.status, 0, `${command} ${flag}: ${run.stderr}`);
        assert.equal(run.stderr, '', `${command} ${flag}`);
        assert.ok(run.stdout.toString().startsWith(`usage: quire ${command} `), `${command} ${flag}: ${run.stdout.toString().slice(0, 80)}`);
      }
    }
    const empty = mkdtempSync(path.join(tmpdir(), 'quire-help-'));
    const nested = await quire(['account', 'create', '--email', 'a@example.com', '--help'], { cwd: empty });
    assert.equal(nested.status, 0, nested.stderr);
    assert.match(nested.stdout.toString(), /^usage: quire account create/);
    assert.equal(existsSync(path.join(empty, 'data')), false, 'no database was made');
    const help = await quire(['help', 'serve']);
    assert.match(help.stdout.toString(), /^usage: quire serve \[--port N\]/);
    const overview = await quire(['--help']);
    assert.match(overview.stdout.toString(), /^usage: quire <command> \[options\][\s\S]*-v, --version/);
    const render = await quire(['render', '--help']);
    assert.match(render.stdout.toString(), /--max-remote N[\s\S]*--max-remote-mb N[\s\S]*--encoding NAME/);
  });

  it('should answer an unknown option with one line naming it and the help to see', async () => {
    const ACTIONS: Record<string, string[]> = { account: ['set', 'acct_1'], key: ['create', 'acct_1'], cert: ['list', 'acct_1'] };
    for (const command of [...COMMANDS, '']) {
      const args = [...(command === '' ? [] : [command, ...(ACTIONS[command] ?? [])]), '--bogus'];
      const run = await quire(args, { cwd: tmpdir() });
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stderr, `quire: unknown option --bogus (see quire ${command === '' ? '' : `${command} `}--help)\n`, args.join(' '));
    }
    const action = await quire(['account', 'list']);
    assert.equal(action.stderr, 'quire: unknown action "list": quire account create … | quire account set ACCOUNT … (see quire account --help)\n');
    const missing = await quire(['serve', '--port'], { cwd: tmpdir() });
    assert.equal(missing.stderr, 'quire: --port needs a value (see quire serve --help)\n');
    const flagged = await quire(['account', 'create', '--unverified=yes'], { cwd: tmpdir() });
    assert.equal(flagged.stderr, 'quire: --unverified takes no value (see quire account --help)\n');
  });
});
