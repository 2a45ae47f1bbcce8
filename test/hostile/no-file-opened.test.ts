/**
 * The renderer opens nothing it was not given (DESIGN rule 5), proved from outside: the link
 * attacks and the hostile corpus's SVG, HTML and image cases are rendered in a child process
 * under strace, which sees every file the process — native code (resvg) included — tries to
 * open, and every connection it tries to make.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { linkAttackCorpus, plantTargets } from './support/link-attacks.js';
import { recipeMarkdown, type Recipe } from './support/recipe.js';
import type { CorpusDocument } from './support/render-corpus.js';
import { MIB } from './support/suite-mode.js';
import { tracedRender, tracedWorkspace } from './support/traced-render.js';

/** The hostile cases that name or carry images, SVG, HTML or paths. */
const FILE_CASES = /svg|image|img|html|iframe|script|object|file:|relative/i;
/** Peak resident memory of the renderer over the whole corpus. */
const MEMORY_CEILING_MB = 1024;

function hostileDocuments(): CorpusDocument[] {
  const manifest = JSON.parse(readFileSync(new URL('../../../fixtures/hostile/manifest.json', import.meta.url), 'utf8')) as {
    cases: Array<{ name: string; recipe: Recipe; slow?: boolean }>;
  };
  return manifest.cases.flatMap((entry) => {
    const document = !entry.slow && FILE_CASES.test(entry.name) ? recipeMarkdown(entry.recipe) : null;
    return document ? [{ name: entry.name, ...document }] : [];
  });
}

describe('the renderer under strace', () => {
  it('should open only its own code, fonts and the documents folder, and connect nowhere, whatever the documents name', async () => {
    const { folder, outside } = tracedWorkspace();
    const targets = plantTargets(folder, outside);
    const documents = [...linkAttackCorpus(folder, targets), ...hostileDocuments()];
    const started = performance.now();
    const run = await tracedRender(documents, folder);
    console.log(
      `traced: ${documents.length} documents in ${Math.round(performance.now() - started)} ms, peak RSS ${Math.round(run.maxRssBytes / MIB)} MB, ${run.opened.size} files opened`,
    );
    assert.deepEqual(run.forbidden, [], 'files opened that the renderer was not given');
    for (const file of targets.files) assert.equal(run.opened.has(file), false, `${file} was opened`);
    assert.deepEqual(run.connects, [], 'connections attempted');
    assert.equal(run.failure, null, 'the renderer finished');
    assert.ok(run.maxRssBytes < MEMORY_CEILING_MB * MIB, `peak RSS ${Math.round(run.maxRssBytes / MIB)} MB`);
    assert.equal(run.outcomes.length, documents.length, 'every document was answered');
    assert.deepEqual(
      run.outcomes.filter(({ outcome }) => outcome.startsWith('untyped')),
      [],
      'every refusal is a typed error',
    );
  });
});
