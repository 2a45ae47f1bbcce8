/** `quire render --set`, `--config` and a quire.yaml beside the input, judged on the PDFs written. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageSizes, pdftotext } from '../../support/pdf-tools.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bin/quire.cjs');
const MM = 72 / 25.4;

function quire(args: string[]) {
  return spawnSync(process.execPath, [BIN, 'render', ...args]);
}

function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-design-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function sizeOf(pdf: string): Promise<[number, number]> {
  const [size] = await pageSizes(readFileSync(pdf));
  return [Math.round(size!.width), Math.round(size!.height)];
}

describe('quire render design settings', () => {
  it('should apply --set settings, a slot of a footer included', async () => {
    const dir = folderWith({ 'notes.md': '# Notes\n\nText.\n\n## Details\n\nMore.\n' });
    const result = quire([
      path.join(dir, 'notes.md'),
      '--set',
      'paper=letter',
      '--set',
      'footer.left={title}',
      '--set',
      'footer.right=Page {page} of {pages}',
      '--set',
      'number_headings=true',
    ]);
    assert.equal(result.status, 0, result.stderr.toString());
    const pdf = path.join(dir, 'notes.pdf');
    assert.deepEqual(await sizeOf(pdf), [612, 792]);
    const text = await pdftotext(readFileSync(pdf));
    // The lone H1 is the title, unnumbered; the sections under it number from 1.
    assert.match(text, /^Notes\s+Text\.\s+1\s+Details/);
    assert.match(text, /Notes\s+Page 1 of 1/);
  });

  it('should read quire.yaml beside the input, --set over it and the front matter over both', async () => {
    const dir = folderWith({
      'quire.yaml': 'paper: a5\norientation: landscape\nfooter:\n  left: "{author}"\n',
      'plain.md': '---\nauthor: Ada\n---\n\nText.\n',
      'own.md': '---\npaper: legal\n---\n\nText.\n',
    });
    assert.equal(quire([path.join(dir, 'plain.md')]).status, 0);
    assert.deepEqual(await sizeOf(path.join(dir, 'plain.pdf')), [Math.round(210 * MM), Math.round(148 * MM)]);
    assert.match(await pdftotext(readFileSync(path.join(dir, 'plain.pdf'))), /^Ada$/m);
    assert.equal(quire([path.join(dir, 'plain.md'), '--set', 'orientation=portrait']).status, 0);
    assert.deepEqual(await sizeOf(path.join(dir, 'plain.pdf')), [Math.round(148 * MM), Math.round(210 * MM)]);
    assert.equal(quire([path.join(dir, 'own.md'), '--set', 'paper=a4']).status, 0);
    assert.deepEqual(await sizeOf(path.join(dir, 'own.pdf')), [1008, 612], 'legal from the front matter, turned by quire.yaml');
  });

  it('should read the file --config names instead', async () => {
    const dir = folderWith({ 'quire.yaml': 'paper: a5\n', 'other/settings.yaml': 'paper: legal\n', 'doc.md': 'Text.\n' });
    assert.equal(quire([path.join(dir, 'doc.md'), '--config', path.join(dir, 'other/settings.yaml')]).status, 0);
    assert.deepEqual(await sizeOf(path.join(dir, 'doc.pdf')), [612, 1008]);
  });

  it('should refuse a bad value with one line naming the key and the value, exit 1 and write nothing', () => {
    const dir = folderWith({ 'doc.md': 'Text.\n' });
    const result = quire([path.join(dir, 'doc.md'), '--set', 'paper=b7']);
    assert.equal(result.status, 1);
    const lines = result.stderr.toString().trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^quire: paper must be a4, a5, letter, legal .*not "b7"/);
    assert.ok(!existsSync(path.join(dir, 'doc.pdf')));
    const inFile = folderWith({ 'quire.yaml': 'margin: lots\n', 'doc.md': 'Text.\n' });
    const fromFile = quire([path.join(inFile, 'doc.md')]);
    assert.equal(fromFile.status, 1);
    assert.match(fromFile.stderr.toString(), /^quire: margin must be .*not "lots"/);
    const inDocument = quire([path.join(folderWith({ 'doc.md': '---\nwatermark: [1, 2]\n---\n\nText.\n' }), 'doc.md')]);
    assert.equal(inDocument.status, 1);
    assert.match(inDocument.stderr.toString(), /^quire: .*doc\.md:2: front matter: watermark must be one line of text .*not \[1,2\]\n$/);
  });

  it('should refuse a malformed --set or settings file with one line', () => {
    const dir = folderWith({ 'doc.md': 'Text.\n', 'broken.yaml': 'paper: [a4\n', 'list.yaml': '- a4\n' });
    const malformed = quire([path.join(dir, 'doc.md'), '--set', 'paper']);
    assert.equal(malformed.status, 2);
    assert.match(malformed.stderr.toString(), /^quire: --set takes key=value/);
    for (const file of ['broken.yaml', 'list.yaml', 'absent.yaml']) {
      const result = quire([path.join(dir, 'doc.md'), '--config', path.join(dir, file)]);
      assert.equal(result.status, 1, file);
      assert.equal(result.stderr.toString().trim().split('\n').length, 1, file);
      assert.match(result.stderr.toString(), new RegExp(file.replace('.', '\\.')));
    }
  });

  it('should name keys it does not know, in --set and the settings file, in warnings, and still render', () => {
    const dir = folderWith({ 'quire.yaml': 'colour_scheme: neon\n', 'doc.md': 'Text.\n' });
    const result = quire([path.join(dir, 'doc.md'), '--set', 'fancy=yes', '--set', 'papr=letter']);
    assert.equal(result.status, 0, result.stderr.toString());
    const warnings = result.stderr
      .toString()
      .split('\n')
      .filter((line) => line.startsWith('quire: warning: '));
    assert.deepEqual(warnings, [
      'quire: warning: --set: unknown key `papr` is ignored (did you mean `paper`?)',
      'quire: warning: --set: unknown key `fancy` is ignored',
      `quire: warning: ${path.join(dir, 'quire.yaml')}:1: unknown key \`colour_scheme\` is ignored`,
    ]);
    assert.doesNotMatch(result.stderr.toString(), /neon|yes/, 'values are not repeated');
  });
});
