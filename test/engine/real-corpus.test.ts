/**
 * Real documents nobody here wrote (fixtures/real, with their licences), rendered as a user
 * would: each must render, and its PDF must hold every word a reader sees in its source (found by
 * markdown-it, not by Quire's parser), draw no missing-glyph box for a character some bundled or
 * installed font has, and leave no internal link unresolved whose target the source defines.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { render } from '#engine/index.js';
import { FIXTURES } from '../support/fixtures.js';
import { boxedCharacters } from '../support/marked-lines.js';
import { pdftotext } from '../support/pdf-tools.js';
import { sourceAnchors, sourceWords, words } from '../support/source-words.js';

const REAL = path.join(FIXTURES, 'real');
const DOCUMENTS = [
  ...readdirSync(REAL)
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .map((name) => path.join(REAL, name)),
  path.join(FIXTURES, 'commander-readme.md'),
  path.join(FIXTURES, 'webcrypto/webcrypto.md'),
];

const bundledFaces = readdirSync(path.join(FIXTURES, '../engine/fonts'), { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.(ttf|otf)$/i.test(name))
  .map((name) => fontkit.openSync(path.join(FIXTURES, '../engine/fonts', name)) as fontkit.Font);

/** Whether any bundled font, or any font fontconfig knows on this machine, has the character. */
function someFontHas(character: string): boolean {
  const codePoint = character.codePointAt(0)!;
  if (bundledFaces.some((face) => face.hasGlyphForCodePoint(codePoint))) return true;
  return execFileSync('fc-list', [`:charset=${codePoint.toString(16)}`], { encoding: 'utf8' }).trim() !== '';
}

describe(`real documents (${DOCUMENTS.length})`, () => {
  for (const file of DOCUMENTS) {
    it(`should render ${path.relative(FIXTURES, file)} whole`, async () => {
      const markdown = readFileSync(file, 'utf8');
      const { pdf, warnings } = await render(markdown, { resources: 'lenient' });

      const extracted = words(await pdftotext(pdf));
      const lost = [...sourceWords(markdown)].filter((word) => !extracted.has(word));
      assert.deepEqual(lost, [], 'words of the source missing from the PDF text');

      const anchors = sourceAnchors(markdown);
      const unresolved = warnings
        .flatMap((warning) => /^link to #(.+) has no matching heading or anchor$/.exec(warning)?.slice(1) ?? [])
        .filter((anchor) => anchors.has(anchor));
      assert.deepEqual(unresolved, [], 'links whose targets the source defines');

      const boxed = (await boxedCharacters(pdf)).filter(({ text }) => [...text].some(someFontHas));
      assert.deepEqual(boxed, [], 'boxes drawn for characters a font has');
    });
  }
});
