import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pdftotext } from '../../support/pdf-tools.js';
import { processReport, writeProcessProbe } from '../../support/process-probe.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bin/quire.cjs');

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

  it('should run the bundled command, writing the bytes the unbundled one writes (Arabic, math, diagrams, images, emoji shortcodes, entities)', () => {
    // The bundle defers some of its libraries' start-up work; the output must not notice.
    const unbundled = path.join(path.dirname(BIN), '../dist/src/cli/main.js');
    assert.ok(existsSync(path.join(path.dirname(BIN), '../dist/bundle/dist/src/cli/main.js')), 'npm run build made the bundle');
    const fixtures = fileURLToPath(new URL('../../../../fixtures/content/', import.meta.url));
    cpSync(path.join(fixtures, 'images'), path.join(dir, 'images'), { recursive: true });
    const rich = path.join(dir, 'rich.md');
    writeFileSync(
      rich,
      `${readFileSync(path.join(fixtures, 'kitchen-sink.md'), 'utf8')}\n\nمرحبا بالعالم — שלום\n\nAT&amp;T &copy; &#169; &ccedil;a &unknown; [link](https://example.com/?a=1&amp;b=2)\n`,
    );
    const bundled = quire(['render', rich, '-o', '-']);
    assert.equal(bundled.status, 0, bundled.stderr.toString());
    const plain = spawnSync(process.execPath, [unbundled, 'render', rich, '-o', '-']);
    assert.equal(plain.status, 0, plain.stderr.toString());
    assert.ok(bundled.stdout.length > 10_000 && bundled.stdout.equals(plain.stdout), 'byte-identical PDFs');
  });

  it('should warn on standard error of each character no font has, with its pages', () => {
    const result = quire(['render', '-', '-o', path.join(dir, 'boxes.pdf')], 'A private \ue000 character, twice: \ue000.\n');
    assert.equal(result.status, 0, result.stderr.toString());
    assert.match(result.stderr.toString(), /^quire: warning: no font has U\+E000 \("\ue000"\), drawn as a box on page 1$/m);
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
  it("should leave the main thread the normal priority and give V8's helper threads the lowest (Linux)", { skip: !existsSync('/proc/self/task') }, () => {
    const result = spawnSync(process.execPath, ['--require', writeProcessProbe(dir), BIN, 'render', '-', '-o', '-'], { input: '# Priority' });
    assert.equal(result.status, 0, result.stderr.toString());
    const reported = processReport(result.stderr.toString());
    assert.equal(reported.mainNice, 0);
    assert.ok(reported.helperNices!.length >= 4, `V8's helpers: ${reported.helperNices!.length}`);
    assert.ok(
      reported.helperNices!.every((nice) => nice === 19),
      `helper priorities: ${reported.helperNices}`,
    );
  });
});
