import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { boxedCharacters } from '../../support/marked-lines.js';

/** A private-use character: no bundled font has one, and it stands for nothing a font could draw. */
const PRIVATE = '\ue000';
const FILLER = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of the filler between the boxes.`).join('\n\n');

describe('characters no font has', () => {
  it('should warn once per character, naming it and the pages its boxes are on', async () => {
    const { pdf, warnings } = await render(`Private ${PRIVATE} use.\n\n${FILLER}\n\nAgain ${PRIVATE}${PRIVATE} here.\n`);
    assert.deepEqual([...new Set((await boxedCharacters(pdf)).map(({ page }) => page))], [1, 3], 'the document draws its boxes on pages 1 and 3');
    assert.deepEqual(warnings, [`no font has U+E000 ("${PRIVATE}"), drawn as a box on pages 1, 3`]);
  });

  it('should not warn for a character drawn in colour or by a fallback font', async () => {
    const { warnings } = await render('Emoji 🚀 and `code 🚀`, Greek αβγ, arrows ⟶.\n\n```\n🎉 done\n```\n');
    assert.deepEqual(warnings, []);
  });
});
