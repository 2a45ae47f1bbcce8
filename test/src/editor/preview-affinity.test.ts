/**
 * The editor's previews of one account go back to the worker that drew its last one when it is
 * free: that worker holds the account's laid-out blocks, so an edit lays out only what changed.
 * The stand-in engine's preview says how many previews its worker has drawn.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_FEATURES } from '#engine/options.js';
import type { RenderTask } from '../../../src/workers/protocol.js';
import { RenderPool } from '../../../src/workers/pool.js';
import { STAND_IN_ENGINE } from '../../support/service-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quire-affinity-'));

function task(markdown: string, preview: boolean): RenderTask {
  return {
    markdown,
    features: { ...DEFAULT_FEATURES },
    language: undefined,
    resources: 'lenient',
    maxPages: 100,
    resourceBytes: 1_000_000,
    remoteResources: false,
    fetchId: 'affinity',
    ...(preview && { preview: { knownPages: [], shownPages: [], focusPage: 0 } }),
  };
}

describe('preview affinity', () => {
  const pool = new RenderPool({ size: 2, queueLimit: 8, memoryMb: 256, engineModule: STAND_IN_ENGINE });
  after(async () => {
    await pool.close(0);
    rmSync(dir, { recursive: true, force: true });
  });

  async function drawnBy(account: string): Promise<string | undefined> {
    const result = await pool.run(task('# Preview', true), 30_000, account);
    assert.ok(result.ok);
    return result.output.preview?.warnings[0];
  }

  it("should send an account's previews to the worker holding its blocks, not merely the first free one", async () => {
    await pool.started();
    // The first worker is busy: the account's first preview goes to the second.
    const gate = path.join(dir, 'gate');
    const busy = pool.run(task(`gate:${gate}\n# Busy`, false), 30_000, 'other');
    while (pool.stats().busy === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(await drawnBy('editor'), 'previews drawn here: 1');
    writeFileSync(gate, '');
    assert.ok((await busy).ok);
    // Both free now: back to the second worker, twice.
    assert.equal(await drawnBy('editor'), 'previews drawn here: 2');
    assert.equal(await drawnBy('editor'), 'previews drawn here: 3');
    // Another account's first preview takes the first free worker, which has drawn none.
    assert.equal(await drawnBy('someone'), 'previews drawn here: 1');
  });
});
