/**
 * A property-based fuzzer of the SVG and HTML the renderer reads (fast-check): random documents
 * built from hostile markup (markup-arbitrary.ts) are rendered under strace, with the oracle of
 * DESIGN rule 5 — no file opened that the renderer was not given, no connection, memory bounded,
 * every document answered in time. CI runs a short, seeded form; `npm run fuzz` a long one with a
 * fresh seed (QUIRE_FUZZ_RUNS documents, QUIRE_SEED to replay).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { plantTargets } from './support/link-attacks.js';
import { hostileDocument } from './support/markup-arbitrary.js';
import { bytes } from './support/recipe.js';
import { MIB } from './support/suite-mode.js';
import { tracedRender, tracedWorkspace } from './support/traced-render.js';

const LONG = process.env.QUIRE_FUZZ === 'long';
const RUNS = Number(process.env.QUIRE_FUZZ_RUNS ?? (LONG ? 5_000 : 300));
const SEED = Number(process.env.QUIRE_SEED ?? (LONG ? Date.now() % 2 ** 31 : 42));
/** Documents per traced process, so one process's memory stays the measure of a few hundred documents. */
const BATCH = 500;
const MEMORY_CEILING_MB = 1024;

describe(`fuzzing the SVG and HTML readers (${RUNS} documents, seed ${SEED})`, () => {
  it('should never open a file it was not given, connect, exhaust memory or hang', async () => {
    const { folder, outside } = tracedWorkspace();
    const targets = plantTargets(folder, outside);
    const bombPng = bytes([{ image: { format: 'png', width: 8, height: 8, inflatesToMib: 64 } }]).toString('base64');
    const markdowns = fc.sample(hostileDocument({ hrefs: targets.hrefs, bombPng }), { numRuns: RUNS, seed: SEED });
    const started = performance.now();
    let peakRss = 0;
    const outcomes = new Map<string, number>();
    for (let from = 0; from < markdowns.length; from += BATCH) {
      const documents = markdowns.slice(from, from + BATCH).map((markdown, i) => ({ name: `#${from + i}`, markdown }));
      const run = await tracedRender(documents, folder);
      const culprit = (name: string | null) => (name === null ? '' : `\n${markdowns[Number(name.slice(1))]}`);
      for (const opened of run.forbidden) assert.fail(`document ${opened.document} opened ${opened.path} (seed ${SEED})${culprit(opened.document)}`);
      for (const file of targets.files) assert.equal(run.opened.has(file), false, `${file} was opened (seed ${SEED})`);
      assert.deepEqual(run.connects, [], `connections attempted (seed ${SEED})`);
      assert.equal(run.failure, null, `the renderer did not finish, in document ${run.lastDocument} (seed ${SEED})${culprit(run.lastDocument)}`);
      for (const { name, outcome } of run.outcomes) assert.doesNotMatch(outcome, /^untyped/, `document ${name} (seed ${SEED})${culprit(name)}`);
      peakRss = Math.max(peakRss, run.maxRssBytes);
      for (const { outcome } of run.outcomes) outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      assert.ok(run.maxRssBytes < MEMORY_CEILING_MB * MIB, `peak RSS ${Math.round(run.maxRssBytes / MIB)} MB (seed ${SEED})`);
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `fuzz: ${RUNS} documents, seed ${SEED}, ${seconds.toFixed(1)} s (${(RUNS / seconds).toFixed(1)} documents/s), peak RSS ${Math.round(peakRss / MIB)} MB, nothing opened or connected; ${JSON.stringify(Object.fromEntries(outcomes))}`,
    );
  });
});
