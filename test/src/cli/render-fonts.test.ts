/** `quire render --font`, as a user runs it (bin/quire.cjs in a process of its own), judged on the PDFs written. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundledFont, FONTS, withFsType } from '../../support/font-files.js';
import { pdffonts } from '../../support/pdf-tools.js';
import { pageTextFonts } from '../../support/pdfjs.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bin/quire.cjs');

function quire(args: string[], cwd?: string) {
  const result = spawnSync(process.execPath, [BIN, 'render', ...args], { ...(cwd && { cwd }) });
  return { status: result.status, stderr: result.stderr.toString() };
}

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-fonts-'));
  copyFileSync(path.join(FONTS, 'dejavu/DejaVuSans.ttf'), path.join(dir, 'DejaVuSans.ttf'));
  copyFileSync(path.join(FONTS, 'dejavu/DejaVuSans-Bold.ttf'), path.join(dir, 'DejaVuSans-Bold.ttf'));
  return dir;
}

async function fontOf(pdf: Uint8Array, text: string): Promise<string> {
  const item = (await pageTextFonts(pdf, 1)).find((candidate) => candidate.text.includes(text));
  assert.ok(item, `no text item with ${text}`);
  return item.font;
}

describe('quire render --font', () => {
  it('should set a document in fonts given as files, named by their own family or by the one given', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'own.md'), '---\nfonts: DejaVu Sans\n---\n\n# Title\n\nBody text, **bold**.\n');
    // Relative to the working folder, as a shell passes them.
    let result = quire(['own.md', '--font', 'DejaVuSans.ttf', '--font', 'DejaVuSans-Bold.ttf'], dir);
    assert.equal(result.status, 0, result.stderr);
    const own = readFileSync(path.join(dir, 'own.pdf'));
    const names = (await pdffonts(own)).map((row) => `${row.name.replace(/^[A-Z]{6}\+/, '')} ${row.embedded} ${row.subset}`).sort();
    assert.deepEqual(names, ['DejaVuSans true true', 'DejaVuSans-Bold true true']);
    assert.equal(await fontOf(own, 'Body text'), 'DejaVuSans');
    assert.equal(await fontOf(own, 'Title'), 'DejaVuSans-Bold');

    writeFileSync(path.join(dir, 'given.md'), '# Title\n\nBody text.\n');
    result = quire([path.join(dir, 'given.md'), '--font', `House Sans=${path.join(dir, 'DejaVuSans.ttf')}`, '--set', 'fonts=house sans']);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(await fontOf(readFileSync(path.join(dir, 'given.pdf')), 'Body text'), 'DejaVuSans');
  });

  it('should refuse a font whose licence forbids embedding, and a file that is no font, naming the file', () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'notes.md'), '# Notes\n\nText.\n');
    const locked = path.join(dir, 'locked.ttf');
    writeFileSync(locked, withFsType(bundledFont('dejavu/DejaVuSans.ttf'), 0x0002));
    let result = quire([path.join(dir, 'notes.md'), '--font', locked]);
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr,
      `quire: font ${locked}: DejaVuSans may not be embedded: its OS/2 fsType 0x0002 asks for restricted licence embedding (0x0002), which needs the legal owner's permission\n`,
    );
    result = quire([path.join(dir, 'notes.md'), '--font', path.join(dir, 'notes.md')]);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, `quire: font ${path.join(dir, 'notes.md')}: is not a TrueType or OpenType font (.ttf, .otf, .ttc)\n`);
    result = quire([path.join(dir, 'notes.md'), '--font', path.join(dir, 'missing.ttf')]);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, `quire: cannot read font ${path.join(dir, 'missing.ttf')}: ENOENT\n`);
    result = quire([path.join(dir, 'notes.md'), '--font', `Mono=${path.join(dir, 'DejaVuSans.ttf')}`]);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^quire: --font .*DejaVuSans\.ttf: "Mono" names a bundled family: register the font under another name\n$/);
  });
});
