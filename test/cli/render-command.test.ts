import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pdftotext } from '../support/pdf-tools.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/quire.js');

function quire(args: string[], input?: string) {
  return spawnSync(process.execPath, [BIN, ...args], input === undefined ? {} : { input });
}

describe('quire render', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-cli-'));

  it('should write file.pdf beside file.md and say how many pages', async () => {
    const file = path.join(dir, 'notes.md');
    writeFileSync(file, '# Notes\n\nWritten from the command line.');
    const result = quire(['render', file, '--theme', 'dark', '--no-smart-typography']);
    assert.equal(result.status, 0, result.stderr.toString());
    assert.match(result.stderr.toString(), /wrote .*notes\.pdf \(1 page\)/);
    assert.match(await pdftotext(readFileSync(path.join(dir, 'notes.pdf'))), /Written from the command line\./);
  });

  it('should read standard input and write the PDF to standard output', () => {
    const result = quire(['render', '-'], 'From *stdin*.');
    assert.equal(result.status, 0);
    assert.equal(result.stdout.subarray(0, 5).toString('latin1'), '%PDF-');
  });

  it('should answer a bad option, a missing file and broken front matter with one line and a non-zero exit', () => {
    const unknown = quire(['render', '-', '--no-such-feature'], 'x');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr.toString(), /^quire: unknown option --no-such-feature/);
    const missing = quire(['render', path.join(dir, 'absent.md')]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr.toString(), /^quire: cannot read .*absent\.md: ENOENT\n$/);
    const broken = quire(['render', '-', '-o', path.join(dir, 'broken.pdf')], '---\ntitle: [oops\n---\n\nText');
    assert.equal(broken.status, 1);
    assert.equal(broken.stderr.toString().trim().split('\n').length, 1);
    assert.match(broken.stderr.toString(), /front matter/);
    assert.equal(existsSync(path.join(dir, 'broken.pdf')), false);
  });
});
