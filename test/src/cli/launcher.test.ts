import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pdftotext } from '../../support/pdf-tools.js';
import { processReport, writeProcessProbe, type ProcessReport } from '../../support/process-probe.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bin');

describe('the quire command (bin/quire)', { skip: process.platform === 'win32' }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-launcher-'));
  const probe = writeProcessProbe(dir);
  // The probe is preloaded into the Node process the launcher starts.
  const probed = (command: string, args: string[]) => {
    const result = spawnSync(command, args, {
      input: '# Launched',
      env: { ...process.env, NODE_OPTIONS: `--require ${probe}`, NODE_EXTRA_CA_CERTS: path.join(dir, 'extra-roots.pem') },
    });
    const stderr = result.stderr.toString();
    return { ...result, stderr, probe: processReport(stderr) };
  };

  it('should render through a relative link in another folder, as npm links commands', async () => {
    const linkDir = path.join(dir, 'node_modules/.bin');
    mkdirSync(linkDir, { recursive: true });
    symlinkSync(path.relative(linkDir, path.join(BIN, 'quire')), path.join(linkDir, 'quire'));
    const result = spawnSync(path.join(linkDir, 'quire'), ['render', '-', '-o', '-'], { input: 'Through *a link*.', cwd: tmpdir() });
    assert.equal(result.status, 0, result.stderr.toString());
    assert.match(await pdftotext(result.stdout), /Through a link\./);
  });

  it('should start a render without NODE_EXTRA_CA_CERTS, which Node would parse at start, and every other command with it', () => {
    const render = probed(path.join(BIN, 'quire'), ['render', '-', '-o', '-']);
    assert.equal(render.status, 0, render.stderr);
    assert.equal(render.probe.extraCerts, null);
    // Node warns about an unreadable certificate file only if it tried to read it.
    assert.doesNotMatch(render.stderr, /extra certs/);
    const help = probed(path.join(BIN, 'quire'), ['--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.equal(help.probe.extraCerts, path.join(dir, 'extra-roots.pem'));
  });

  it('should give a render one V8 helper thread instead of four on two cores or fewer', { skip: !process.platform.startsWith('linux') }, () => {
    const launched = probed(path.join(BIN, 'quire'), ['render', '-', '-o', '-']);
    const plain = probed(process.execPath, [path.join(BIN, 'quire.cjs'), 'render', '-', '-o', '-']);
    assert.equal(launched.status, 0, launched.stderr);
    assert.equal(plain.status, 0, plain.stderr);
    const fewer = availableParallelism() <= 2 ? 3 : 0;
    const threads = (report: ProcessReport) => report.helperNices!.length + 1;
    assert.equal(
      threads(plain.probe) - threads(launched.probe),
      fewer,
      `threads: ${threads(plain.probe)} started by node, ${threads(launched.probe)} by bin/quire`,
    );
  });
});
