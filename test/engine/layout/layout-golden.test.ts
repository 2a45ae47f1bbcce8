/**
 * Layout as data: small documents laid out and their frames compared, item by item, with golden
 * files in test/golden/ — no PDF in between. A change to line breaking, spacing or pagination
 * shows here as the lines it moved; `UPDATE_GOLDEN=1` writes the files anew for review.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { layOutSources } from '#engine/pipeline.js';
import { noLoader } from '#engine/resources/loader.js';
import { assertGolden, framesText, GOLDEN } from '../../support/golden.js';

describe('layout, compared with golden frames', () => {
  for (const name of ['paragraphs', 'blocks']) {
    it(`should lay out ${name}.md as its golden frames`, async () => {
      const markdown = readFileSync(path.join(GOLDEN, `${name}.md`), 'utf8');
      const { laidOut } = await layOutSources([{ markdown, path: null, loader: noLoader }], {});
      assertGolden(`${name}.frames`, framesText(laidOut));
    });
  }
});
