import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { destinationPlace, links, outline, textPlace } from '../../support/pdfjs.js';

const FILLER = 'Filler paragraph that takes a line of its own.\n\n'.repeat(70);

/**
 * A link points at `#name`, which lands where `marker` (a word on the target's first line) is
 * drawn: on its page, the view's top above the marker's baseline by its line's ascent (11 pt in
 * body text, 15 in a heading), less than the 25 the body line before would give.
 */
async function assertLandsOn(pdf: Uint8Array, name: string, marker: string): Promise<void> {
  const found = await links(pdf);
  assert.ok(
    found.some((link) => link.dest === name),
    `a link annotation points at ${name}: ${found.map((link) => link.dest ?? link.url).join(' ')}`,
  );
  const place = await destinationPlace(pdf, name);
  const text = await textPlace(pdf, marker);
  assert.ok(place && text, `${name} is a destination and ${marker} is drawn`);
  assert.equal(place.page, text.page, `${name} lands on the page of ${marker}`);
  const above = place.top - text.baseline;
  assert.ok(above > 0 && above < 20, `${name} lands ${above.toFixed(1)} pt above the baseline of ${marker}`);
}

describe('HTML anchors as link targets', () => {
  it('should land a link on an <a name> inside a paragraph, on its line, on a later page', async () => {
    const target = `${'Words before the anchor fill this paragraph over a few lines of text. '.repeat(6)}<a name="deep"></a>Zanzibar begins the line.`;
    const { pdf, pages, warnings } = await render(`[Jump](#deep)\n\n${FILLER}${target}\n`);
    assert.deepEqual(warnings, []);
    assert.ok(pages >= 2);
    await assertLandsOn(pdf, 'deep', 'Zanzibar');
    assert.equal((await destinationPlace(pdf, 'deep'))!.page, pages);
  });

  it('should land on the content after an <a id> alone in an HTML block', async () => {
    const { pdf, warnings } = await render(`See [installing](#install).\n\n${FILLER}<a id="install"></a>\n\nQuetzal installs in one step.\n`);
    assert.deepEqual(warnings, []);
    await assertLandsOn(pdf, 'install', 'Quetzal');
  });

  it('should land on an <h2 id> in an HTML block, and on an id in a heading and in a span', async () => {
    const markdown = [
      '[heading](#api) [inline](#inline) [span](#part) [slug](#markdown-heading)',
      FILLER,
      '<div>\n<h2 id="api">Walrus API</h2>\n</div>',
      '## <a name="inline"></a>Markdown heading',
      `${'A long paragraph runs on for several lines before the span. '.repeat(5)}Then <span id="part">Yodel</span> continues it.`,
    ].join('\n\n');
    const { pdf, warnings } = await render(markdown);
    assert.deepEqual(warnings, []);
    await assertLandsOn(pdf, 'api', 'Walrus');
    await assertLandsOn(pdf, 'inline', 'Markdown heading');
    await assertLandsOn(pdf, 'markdown-heading', 'Markdown heading');
    await assertLandsOn(pdf, 'part', 'Yodel');
    // The heading's text and slug leave out its HTML tags, as GitHub's do.
    assert.deepEqual(
      (await outline(pdf)).map((item) => item.title),
      ['Walrus API', 'Markdown heading'],
    );
  });

  it('should resolve links before and after their target', async () => {
    const { pdf, warnings } = await render(`[before](#mid)\n\n${FILLER}<a name="mid"></a>Umbrella here.\n\n${FILLER}[after](#mid)\n`);
    assert.deepEqual(warnings, []);
    const found = (await links(pdf)).filter((link) => link.dest === 'mid');
    assert.deepEqual(
      found.map((link) => link.contents),
      ['before', 'after'],
    );
    await assertLandsOn(pdf, 'mid', 'Umbrella');
  });

  it('should match ids exactly, land on the first of duplicates and still warn about a missing target', async () => {
    const markdown = `[first](#twice) [case](#Twice) [nowhere](#missing)\n\n<a name="twice"></a>Vanilla first.\n\n${FILLER}<a name="twice"></a>Wasabi second.\n`;
    const { pdf, warnings } = await render(markdown);
    assert.deepEqual(warnings, ['link to #Twice has no matching heading or anchor', 'link to #missing has no matching heading or anchor']);
    assert.deepEqual(
      (await links(pdf)).map((link) => link.dest),
      ['twice'],
    );
    await assertLandsOn(pdf, 'twice', 'Vanilla');
  });

  it('should give anchors no space of their own, alone between blocks, in a quote or in a list item', async () => {
    const baselineOf = async (markdown: string, word: string) => (await textPlace((await render(markdown)).pdf, word))?.baseline;
    const plain = 'Before.\n\n- item\n-\n- Third\n\nAfter.\n';
    const anchored = 'Before.\n\n<a id="a"></a>\n\n> <a id="b"></a>\n\n- item\n- <a id="c"></a>\n- Third\n\nAfter.\n\n[a](#a) [b](#b) [c](#c)\n';
    assert.equal(await baselineOf(anchored, 'Third'), await baselineOf(plain, 'Third'));
    assert.equal(await baselineOf(anchored, 'After'), await baselineOf(plain, 'After'));
    const { pdf, warnings } = await render(anchored);
    assert.deepEqual(warnings, []);
    await assertLandsOn(pdf, 'a', 'item');
  });
});
