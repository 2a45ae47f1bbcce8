/**
 * `quire render` as a user runs it, through bin/quire in a process of its own: READMEs with
 * remote badges (served by an HTTPS server of this test, trusted through NODE_EXTRA_CA_CERTS,
 * found through a DNS stub with the test-only loopback switch: nothing connects outside
 * loopback), many files to a folder, and --watch.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startDnsStub, type DnsStub } from '../net/support/dns-stub.js';
import { makeTestCa } from '../net/support/test-ca.js';
import { startTestServer, type TestServer } from '../net/support/test-server.js';
import { FIXTURES } from '../../support/fixtures.js';
import { rasterImageCount, structureAlts } from '../../support/pdf-content.js';
import { pdftotext } from '../../support/pdf-tools.js';
import { destinationPage, links, outline, type OutlineItem } from '../../support/pdfjs.js';

const QUIRE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bin/quire');
const PNG = readFileSync(path.join(FIXTURES, 'images/dot.png'));

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

function quire(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(QUIRE, args, { env: { ...process.env, ...env } });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout: Buffer.concat(stdout), stderr })));
}

/** What a shell command writes to a terminal (util-linux's script(1) gives it one). */
function inTerminal(command: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('latin1')));
    child.on('close', () => resolve(out));
  });
}

describe('quire render on real work', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-cli-files-'));
  let images: TestServer;
  let dns: DnsStub;
  let net: NodeJS.ProcessEnv;
  let readme: string;

  before(async () => {
    const ca = makeTestCa(['img.example.com']);
    images = await startTestServer(
      {
        '/badge.png': (_request, response) => response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
        '/gone.png': (_request, response) => response.writeHead(404).end(),
      },
      { key: ca.key, cert: ca.cert },
    );
    dns = await startDnsStub({ 'img.example.com': ['127.0.0.1'] });
    net = { NODE_EXTRA_CA_CERTS: ca.caFile, QUIRE_NET_ALLOW_LOOPBACK: '1', QUIRE_NET_DNS_SERVERS: dns.server, QUIRE_NET_RESOURCE_TIMEOUT_S: '3' };
    readme = path.join(dir, 'README.md');
    const badge = `https://img.example.com:${images.port}`;
    writeFileSync(
      readme,
      `# Project\n\n[![build](${badge}/badge.png)](https://example.com) <img src="${badge}/badge.png?html" alt="html badge">\n\nWhat the project does.\n`,
    );
  });
  after(async () => {
    await images?.close();
    await dns?.close();
  });

  it('should draw remote badges (Markdown and HTML) from an HTTPS server trusted through NODE_EXTRA_CA_CERTS', async () => {
    const before = images.hits.length;
    const run = await quire(['render', readme, '-o', path.join(dir, 'online.pdf')], net);
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /warning/);
    assert.deepEqual(
      images.hits
        .slice(before)
        .map((hit) => hit.target)
        .sort(),
      ['/badge.png', '/badge.png?html'],
    );
    const pdf = readFileSync(path.join(dir, 'online.pdf'));
    assert.ok((await rasterImageCount(pdf)) > 0, 'the badges are drawn');
    assert.match(await pdftotext(pdf), /What the project does\./);
  });

  it('should draw placeholders with --offline, naming each image in a warning, and connect to nothing', async () => {
    const connections = images.connections;
    const queries = dns.queries.length;
    const run = await quire(['render', readme, '--offline', '-o', path.join(dir, 'offline.pdf')], net);
    assert.equal(run.status, 0, run.stderr);
    const warnings = run.stderr.split('\n').filter((line) => line.startsWith('quire: warning: '));
    assert.equal(warnings.length, 2, run.stderr);
    assert.match(warnings[0]!, /image 1 \(https:\/\/img\.example\.com:\d+\/badge\.png\) could not be loaded: disabled/);
    assert.match(warnings[1]!, /image 2 \(https:\/\/img\.example\.com:\d+\/badge\.png\?html\) could not be loaded/);
    assert.equal(images.connections, connections, 'no connection reached the image server');
    assert.equal(dns.queries.length, queries, 'no name was looked up');
    const pdf = readFileSync(path.join(dir, 'offline.pdf'));
    assert.equal(await rasterImageCount(pdf), 0);
    assert.match(await pdftotext(pdf), /What the project does\./);
  });

  it('should keep going past an image that fails (exit 0, one warning), and stop on it with --resources strict', async () => {
    const file = path.join(dir, 'gone.md');
    writeFileSync(file, `Before ![gone](https://img.example.com:${images.port}/gone.png) after.\n`);
    const lenient = await quire(['render', file], net);
    assert.equal(lenient.status, 0, lenient.stderr);
    assert.match(lenient.stderr, /warning: image 1 \(https:.*\/gone\.png\) could not be loaded: not_found/);
    assert.match(await pdftotext(readFileSync(path.join(dir, 'gone.pdf'))), /Before .*after\./);
    const strict = await quire(['render', file, '--resources', 'strict', '-o', path.join(dir, 'strict.pdf')], net);
    assert.equal(strict.status, 1);
    assert.match(
      strict.stderr,
      /^quire: image 1 \(https:\/\/img\.example\.com:\d+\/gone\.png\) could not be loaded: the server answered 404 \(--resources strict\)\n$/,
    );
    assert.equal(existsSync(path.join(dir, 'strict.pdf')), false);
  });

  it("should join files into one PDF: each from a new page, one outline, images from each file's folder, links between them", async () => {
    const book = path.join(dir, 'book');
    mkdirSync(path.join(book, 'guide/images'), { recursive: true });
    copyFileSync(path.join(FIXTURES, 'images/dot.png'), path.join(book, 'guide/images/dot.png'));
    writeFileSync(
      path.join(book, 'intro.md'),
      "# Introduction\n\nStart here, then [install it](guide/setup.md#install) or read [the guide](guide/setup.md).[^1]\n\n## Overview\n\nIntro text.\n\n[^1]: The intro's note.\n",
    );
    writeFileSync(
      path.join(book, 'guide/setup.md'),
      "# Setup\n\n![A dot](images/dot.png)\n\n## Install\n\nInstall text, back to [the overview](../intro.md#overview).[^1]\n\n[^1]: The setup's own first note.\n",
    );
    writeFileSync(path.join(book, 'guide/last.md'), "# Overview\n\nThe same heading name as the intro's, kept apart: [here](#overview).\n");
    const output = path.join(dir, 'book.pdf');
    const run = await quire(['render', path.join(book, 'intro.md'), path.join(book, 'guide/setup.md'), path.join(book, 'guide/last.md'), '-o', output]);
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /warning/);
    const pdf = readFileSync(output);
    const pageText = await Promise.all([1, 2, 3].map((page) => pdftotext(pdf, { first: page, last: page })));
    assert.match(pageText[0]!, /^Introduction[\s\S]*Intro text\.[\s\S]*The intro’s note\./);
    assert.match(pageText[1]!, /^Setup[\s\S]*Install text[\s\S]*The setup’s own first note\./);
    assert.match(pageText[2]!, /^Overview\s+The same heading name/);
    assert.ok((await rasterImageCount(pdf)) > 0, "setup.md's image, from its own folder");
    const titles = (items: OutlineItem[]): unknown => items.map((item) => (item.children.length ? [item.title, titles(item.children)] : item.title));
    assert.deepEqual(titles(await outline(pdf)), [['Introduction', ['Overview']], ['Setup', ['Install']], 'Overview']);
    assert.equal((await structureAlts(pdf, 'Part')).length, 3, 'each file tagged as a Part');
    const targets = await Promise.all(
      (await links(pdf)).filter((link) => link.dest !== null).map(async (link) => [link.page, await destinationPage(pdf, link.dest!)]),
    );
    // intro → setup's Install and its first page, and the note; setup → intro's Overview, and its note; last → its own Overview.
    assert.deepEqual(
      targets.filter(([from, to]) => from !== to || from === 3).sort(),
      [
        [1, 2],
        [1, 2],
        [2, 1],
        [3, 3],
      ].sort(),
    );
  });

  it("should give joined files one title block and one contents, from the first file's front matter", async () => {
    const first = path.join(dir, 'book-one.md');
    const second = path.join(dir, 'book-two.md');
    writeFileSync(first, '---\ntitle: The Whole Book\ntoc: true\n---\n\n# Chapter One\n\nFirst chapter text.\n');
    writeFileSync(second, '---\ntitle: Ignored For The Book\n---\n\n# Chapter Two\n\nSecond chapter text.\n');
    const output = path.join(dir, 'titled-book.pdf');
    const run = await quire(['render', first, second, '-o', output]);
    assert.equal(run.status, 0, run.stderr);
    const pdf = readFileSync(output);
    const [one, two] = await Promise.all([1, 2].map((page) => pdftotext(pdf, { first: page, last: page })));
    assert.match(one!, /^The Whole Book[\s\S]*Contents[\s\S]*Chapter One[\s\S]*Chapter Two[\s\S]*First chapter text\./);
    assert.match(two!, /^Chapter Two\s+Second chapter text\./);
    const contents = (await links(pdf)).filter((link) => link.page === 1 && link.dest !== null);
    assert.deepEqual(await Promise.all(contents.map((link) => destinationPage(pdf, link.dest!))), [1, 2]);
  });

  it('should load local images from inside --root only, by default the folder holding the files', async () => {
    const folder = path.join(dir, 'rooted');
    mkdirSync(folder, { recursive: true });
    copyFileSync(path.join(FIXTURES, 'images/dot.png'), path.join(dir, 'beside.png'));
    const file = path.join(folder, 'doc.md');
    writeFileSync(file, 'Before ![beside](../beside.png) after.\n');
    const fenced = await quire(['render', file, '-o', path.join(dir, 'fenced.pdf')]);
    assert.equal(fenced.status, 0, fenced.stderr);
    assert.match(fenced.stderr, /warning: image 1 \(\.\.\/beside\.png\) could not be loaded: forbidden/);
    const opened = await quire(['render', file, '--root', dir, '-o', path.join(dir, 'opened.pdf')]);
    assert.equal(opened.status, 0, opened.stderr);
    assert.doesNotMatch(opened.stderr, /warning/);
    assert.ok((await rasterImageCount(readFileSync(path.join(dir, 'opened.pdf')))) > 0);
  });

  it('should render each file to its own PDF with --out-dir, reporting a failing file and going on', async () => {
    const files = ['one', 'two', 'three'].map((name) => path.join(dir, `${name}.md`));
    files.forEach((file, i) => writeFileSync(file, `# File ${i + 1}\n\nBody of file ${i + 1}.\n`));
    const broken = path.join(dir, 'broken.md');
    writeFileSync(broken, '---\ntitle: [unclosed\n---\n\nText.\n');
    const out = path.join(dir, 'pdf');
    const run = await quire(['render', files[0]!, broken, files[1]!, files[2]!, '--out-dir', out, '--offline']);
    assert.equal(run.status, 1, 'a failed file makes the exit code 1');
    assert.match(run.stderr, /broken\.md: failed: .*front matter/);
    assert.match(run.stderr, /quire: 4 files, 3 pages, [\d.]+ s, 0 warnings, 1 failed\n$/);
    for (const [i, name] of ['one', 'two', 'three'].entries()) {
      assert.match(await pdftotext(readFileSync(path.join(out, `${name}.pdf`))), new RegExp(`Body of file ${i + 1}\\.`));
    }
    assert.equal(existsSync(path.join(out, 'broken.pdf')), false);
    assert.doesNotMatch(run.stderr, /\[[#-]+\]/, 'no progress bar when standard error is not a terminal');
    if (!existsSync('/usr/bin/script')) return;
    // On a terminal (script(1)), a bar rewritten in place.
    const tty = await inTerminal(`'${QUIRE}' render '${files[0]}' '${files[1]}' --out-dir '${out}'`);
    assert.match(tty, /\r\x1b\[2Kquire: \[#{12}-{12}\] 1 of 2 files/);
  });

  it('should refuse to write a PDF read from standard input to a terminal, naming what to do', { skip: !existsSync('/usr/bin/script') }, async () => {
    // util-linux's script(1) runs the command with a terminal as its standard output.
    const file = path.join(dir, 'piped.md');
    writeFileSync(file, 'Piped.\n');
    const shown = await inTerminal(`'${QUIRE}' render - < '${file}'; echo "exit $?"`);
    assert.match(shown, /standard output is a terminal: name the PDF with -o out\.pdf[\s\S]*exit 2/);
    assert.doesNotMatch(shown, /%PDF/);
  });

  it('should render again on every save of the file or an image it shows with --watch, and keep going after an error', async () => {
    const file = path.join(dir, 'watched.md');
    const output = path.join(dir, 'watched.pdf');
    writeFileSync(file, 'First version.\n');
    const { child, lines, until, stderr } = watch(file, output);
    try {
      await until(1);
      writeFileSync(file, '---\ntitle: [broken\n---\n');
      await new Promise((resolve) => setTimeout(resolve, 600));
      writeFileSync(file, 'Second version.\n');
      await until(2);
      writeFileSync(file, 'Third version.\n');
      await until(3);
      assert.equal(lines(/front matter/), 1, stderr());
      assert.match(stderr(), /^quire: wrote .*watched\.pdf \(1 page, [\d.]+ s\)$/m);
      assert.match(await pdftotext(readFileSync(output)), /Third version\./);
      // An image the file shows is followed too: here it appears after the render that missed it.
      const picture = path.join(dir, 'watch-images/picture.png');
      writeFileSync(file, 'Fourth version.\n\n![A picture](watch-images/picture.png)\n');
      await until(4);
      assert.equal(lines(/warning: image 1 \(watch-images\/picture\.png\)/), 1, stderr());
      mkdirSync(path.dirname(picture));
      copyFileSync(path.join(FIXTURES, 'images/dot.png'), picture);
      await until(5);
      assert.equal(lines(/warning/), 1, 'the fifth render found the picture');
      assert.ok((await rasterImageCount(readFileSync(output))) > 0);
    } finally {
      child.kill('SIGINT');
    }
  });
  it('should fetch a remote image once in a --watch session (a failed render between forgets nothing), and ask again at each save for one that failed', async () => {
    const file = path.join(dir, 'watched-remote.md');
    const output = path.join(dir, 'watched-remote.pdf');
    const server = `https://img.example.com:${images.port}`;
    const version = (n: number) => `Version ${n}.\n\n![build](${server}/badge.png?watched) ![gone](${server}/gone.png?watched)\n`;
    const hits = (target: string) => images.hits.filter((hit) => hit.target === target).length;
    writeFileSync(file, version(1));
    const { child, until, stderr } = watch(file, output, net);
    try {
      await until(1);
      writeFileSync(file, version(2));
      await until(2);
      writeFileSync(file, '---\ntitle: [broken\n---\n');
      await new Promise((resolve) => setTimeout(resolve, 600));
      writeFileSync(file, version(3));
      await until(3);
      assert.match(stderr(), /front matter/);
      assert.equal(hits('/badge.png?watched'), 1, 'the badge was fetched by the first render only');
      assert.equal(hits('/gone.png?watched'), 3, 'the failed image was asked for at every save');
      const pdf = readFileSync(output);
      assert.match(await pdftotext(pdf), /Version 3\./);
      assert.ok((await rasterImageCount(pdf)) > 0, 'the third render drew the badge it remembered');
      assert.match(stderr(), /warning: image 2 \(https:.*\/gone\.png\?watched\) could not be loaded: not_found/);
    } finally {
      child.kill('SIGINT');
    }
  });
});

/** Longer than any render here takes on a busy machine; a render that never comes fails the test instead of hanging it. */
const UNTIL_MS = 60_000;

/** `quire render FILE --watch -o OUTPUT` in a process of its own, with what it prints and a wait for its nth render. */
function watch(
  file: string,
  output: string,
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; stderr: () => string; lines: (pattern: RegExp) => number; until: (renders: number) => Promise<void> } {
  const child = spawn(QUIRE, ['render', file, '--watch', '-o', output], { env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = (pattern: RegExp) => stderr.split('\n').filter((line) => pattern.test(line)).length;
  const until = (renders: number) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        if (lines(/^quire: wrote /) >= renders) resolve();
        else if (child.exitCode !== null) reject(new Error(`quire stopped: ${stderr}`));
        else if (Date.now() - started > UNTIL_MS) reject(new Error(`no render ${renders} in ${UNTIL_MS / 1000} s: ${stderr}`));
        else setTimeout(check, 50);
      };
      check();
    });
  return { child, stderr: () => stderr, lines, until };
}
