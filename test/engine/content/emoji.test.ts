import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { gemoji } from 'gemoji';
import { render } from '#engine/index.js';
import { emojiDrawing, replaceShortcodes, splitEmoji } from '#engine/content/emoji/index.js';
import { NAMES_WITHOUT_LETTERS } from '#engine/content/emoji/shortcodes.js';
import { fixture } from '../../support/fixtures.js';
import { boxedCharacters } from '../../support/marked-lines.js';
import { pdfFile, pdftotext, wordBoxes } from '../../support/pdf-tools.js';

const run = promisify(execFile);

/** The page content of a PDF, decompressed. */
async function content(pdf: Uint8Array): Promise<string> {
  const { stdout } = await run('qpdf', ['--qdf', '--object-streams=disable', pdfFile(pdf), '-'], { encoding: 'latin1', maxBuffer: 64 << 20 });
  return stdout;
}

/** Filled paths (`f` / `f*` operators) in the content: emoji are drawn as many of them. */
async function filledPaths(pdf: Uint8Array): Promise<number> {
  return ((await content(pdf)).match(/^f\*?$/gm) ?? []).length;
}

async function rasterImages(pdf: Uint8Array): Promise<number> {
  const { stdout } = await run('pdfimages', ['-list', pdfFile(pdf)]);
  return stdout.trim().split('\n').length - 2;
}

const TYPED = ['😀', '🚀', '👍🏽', '👩🏿‍💻', '🧑🏻‍🤝‍🧑🏾', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇯🇵', '🇩🇪', '🇧🇷', '1️⃣', '#️⃣', '❤️', '🐦‍🔥'];

describe('emoji', () => {
  it('should replace GitHub shortcodes by their emoji, drawn as vectors and extracted as the characters', async () => {
    const { pdf } = await render('Ship it :rocket: :+1: :heart: :us: :scotland: :keycap_ten:\n');
    const text = await pdftotext(pdf);
    assert.match(text, /Ship it 🚀 👍 ❤️ 🇺🇸 🏴󠁧󠁢󠁳󠁣󠁴󠁿 🔟/u);
    assert.doesNotMatch(text, /:rocket:/);
    assert.ok((await filledPaths(pdf)) >= 6);
    assert.equal(await rasterImages(pdf), 0);
  });

  it('should leave unknown names, custom GitHub images and times as written', async () => {
    const text = await pdftotext((await render('At 10:30:00 :octocat: and :not_an_emoji: stay.\n')).pdf);
    assert.match(text, /At 10:30:00 :octocat: and :not_an_emoji: stay\./);
  });

  it('should draw typed ZWJ sequences, skin tones, flags and keycaps, each extracted exactly and in its line', async () => {
    const { pdf } = await render(`Typed: ${TYPED.join(' ')} end.\n`);
    const text = await pdftotext(pdf);
    assert.ok(text.includes(`Typed: ${TYPED.join(' ')} end.`), text);
    assert.equal(await rasterImages(pdf), 0);
    // Each emoji is several vector paths; text-style fallback would draw none.
    assert.ok((await filledPaths(pdf)) >= TYPED.length * 3);
  });

  it('should tag each emoji as a Span whose ActualText is the sequence', async () => {
    const pdf = await content((await render('A family 👨‍👩‍👧‍👦 here.\n')).pdf);
    const sequence = [...'👨‍👩‍👧‍👦'].map((char) => char).join('');
    const hex = Array.from({ length: sequence.length }, (_, i) => sequence.charCodeAt(i).toString(16).padStart(4, '0')).join('');
    assert.match(pdf, new RegExp(`/ActualText <feff${hex}>`, 'i'));
  });

  it('should leave shortcodes in code as typed, and draw a typed emoji there in colour, as in text', async () => {
    const markdown = 'Code `:smile:` and `go 😀 now` here.\n\n```\n:smile: 😀 stays\n```\n\n    indented 👍 code\n';
    const { pdf } = await render(markdown);
    const text = await pdftotext(pdf);
    assert.match(text, /Code :smile: and go 😀 now here\./u);
    assert.match(text, /:smile: 😀 stays/u);
    assert.match(text, /indented 👍 code/u);
    assert.deepEqual(await boxedCharacters(pdf), [], 'no emoji drawn as a box');
    // Each of the three emoji is several vector paths beyond the code panels.
    assert.ok((await filledPaths(pdf)) >= (await filledPaths((await render(markdown, { features: { emoji: false } })).pdf)) + 3 * 3);
  });

  it('should give an emoji in a code block two columns, as a terminal does, keeping the columns after it aligned', async () => {
    const { pdf } = await render('```\n🎉🎉 end\nabcd end\n```\n');
    const ends = (await wordBoxes(pdf))[0]!.words.filter((word) => word.text === 'end');
    assert.equal(ends.length, 2);
    assert.ok(Math.abs(ends[0]!.xMin - ends[1]!.xMin) < 0.05, `${ends[0]!.xMin} vs ${ends[1]!.xMin}`);
  });

  it('should draw emoji in HTML blocks in colour: a heading, a centred paragraph, a table cell, code in a cell', async () => {
    const markdown =
      '<h1>Title 🚀</h1>\n\n<p align="center">Made with ❤️ by us 🎉</p>\n\n<table><tr><td>🐛 bugs</td><td><code>x 👍</code></td></tr></table>\n\n<table><tr><td>\n\n```\nlet x = "🐙";\n```\n\n</td></tr></table>\n';
    const { pdf } = await render(markdown);
    const text = await pdftotext(pdf);
    for (const expected of ['Title 🚀', 'Made with ❤️ by us 🎉', '🐛 bugs', 'x 👍', 'let x = "🐙";'])
      assert.ok(text.includes(expected), `${expected} in ${text}`);
    assert.deepEqual(await boxedCharacters(pdf), [], 'no emoji drawn as a box');
    assert.ok((await filledPaths(pdf)) >= (await filledPaths((await render(markdown, { features: { emoji: false } })).pdf)) + 5 * 3);
  });

  it('should draw emoji in the title block and the contents in colour, as in the headings they list', async () => {
    const { pdf } = await render('---\ntitle: Launch 🚀\nsubtitle: Party 🎉\nauthor: Ann 👩‍💻\ntoc: true\n---\n\n# Ready :rocket:\n\nText.\n');
    const text = await pdftotext(pdf);
    for (const expected of ['Launch 🚀', 'Party 🎉', 'Ann 👩‍💻', 'Ready 🚀']) assert.ok(text.includes(expected), `${expected} in ${text}`);
    assert.deepEqual(await boxedCharacters(pdf), [], 'no emoji drawn as a box');
  });

  it('should leave shortcodes literal and draw no emoji when the switch is off', async () => {
    const markdown = 'Off :smile: and 😀 typed.\n';
    const off = await render(markdown, { features: { emoji: false } });
    assert.match(await pdftotext(off.pdf), /Off :smile: and/);
    assert.equal(await filledPaths(off.pdf), 0);
    assert.equal(await rasterImages(off.pdf), 0);
    const on = await render(markdown);
    assert.match(await pdftotext(on.pdf), /Off 😄 and 😀 typed\./u);
    assert.ok((await filledPaths(on.pdf)) > 0);
  });

  it('should keep text-style characters as text unless VS16 asks for the emoji', () => {
    assert.deepEqual(splitEmoji('© ® ™ ↔ ❤ 1 # *'), [{ emoji: false, text: '© ® ™ ↔ ❤ 1 # *' }]);
    assert.deepEqual(splitEmoji('a ❤️ b'), [
      { emoji: false, text: 'a ' },
      { emoji: true, text: '❤️' },
      { emoji: false, text: ' b' },
    ]);
    assert.deepEqual(splitEmoji('⌚︎ watch'), [{ emoji: false, text: '⌚︎ watch' }], 'VS15 keeps text');
    assert.deepEqual(
      splitEmoji('🕵 🕶'),
      [
        { emoji: true, text: '🕵' },
        { emoji: false, text: ' ' },
        { emoji: true, text: '🕶' },
      ],
      'pictographs beyond the BMP, in no text font, are emoji without VS16',
    );
  });

  it('should split sequences whole: ZWJ families, skin tones, flags, keycaps, subdivision flags', () => {
    for (const sequence of [...TYPED, '🏴󠁧󠁢󠁷󠁬󠁳󠁿', '👋🏻']) {
      assert.deepEqual(
        splitEmoji(`x${sequence}y`),
        [
          { emoji: false, text: 'x' },
          { emoji: true, text: sequence },
          { emoji: false, text: 'y' },
        ],
        sequence,
      );
    }
    assert.deepEqual(
      splitEmoji('🇯🇵🇩🇪').map((part) => part.text),
      ['🇯🇵', '🇩🇪'],
    );
  });

  it("should find every emoji of GitHub's set as one sequence with a drawing", async () => {
    for (const entry of gemoji) {
      const parts = splitEmoji(entry.emoji);
      assert.deepEqual(parts, [{ emoji: true, text: entry.emoji }], entry.names[0]);
      assert.ok(await emojiDrawing(entry.emoji), entry.names[0]);
    }
  });

  it('should draw an emoji as vector paths on a 36-unit square, standing on a baseline with a slight descent', async () => {
    const drawing = (await emojiDrawing('🍔'))!;
    assert.equal(drawing.width, 36);
    assert.equal(drawing.height, 36);
    assert.ok(drawing.baseline > 0.8 * 36 && drawing.baseline < 0.95 * 36);
    assert.ok(drawing.items.length > 3 && drawing.items.every((item) => item.kind === 'path'));
    // A non-square icon (the watermelon is 36 × 25.2) is centred in the square.
    const melon = (await emojiDrawing('🍉'))!;
    assert.equal(melon.height, 36);
    assert.equal(await emojiDrawing('🍔'), drawing, 'cached per process');
  });

  it('should draw a sequence the set lacks as its parts side by side, and return null when no part can be drawn', async () => {
    assert.equal((await emojiDrawing('🇺🇺'))!.width, 72, 'an unknown flag as two letters');
    assert.equal((await emojiDrawing('🍕🏽'))!.width, 36, 'an unusual skin tone: the pizza alone');
    assert.equal(await emojiDrawing('\u{1F9B0}'), null, 'a lone hair component falls back to text');
    assert.equal(await emojiDrawing(Array(9).fill('😀').join('\u200d')), null, 'a hostile nine-part sequence is left as text');
  });

  it("should replace adjacent shortcodes and let an unknown name's colon open the next", async () => {
    assert.equal(await replaceShortcodes(':smile::smile:'), '😄😄');
    assert.equal(await replaceShortcodes('note:bar:smile:'), 'note:bar😄');
    assert.equal(await replaceShortcodes(':smile:smile:'), '😄smile:');
    assert.equal(await replaceShortcodes(':constructor: :__proto__:'), ':constructor: :__proto__:');
    assert.equal(await replaceShortcodes('no colons'), 'no colons');
  });

  it('should look past names without a letter only where gemoji has such names', async () => {
    const letterless = gemoji.flatMap((entry) => entry.names).filter((name) => !/[a-z]/.test(name));
    assert.deepEqual(new Set(letterless), NAMES_WITHOUT_LETTERS);
    assert.equal(await replaceShortcodes('At 23:33:13, :100: and :+1: and :-1: and :1234:.'), 'At 23:33:13, 💯 and 👍 and 👎 and 🔢.');
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`should render the emoji fixture in the ${theme} theme with every emoji extracted`, async () => {
      const { pdf } = await render(fixture('content/emoji.md'), { features: { theme } });
      const text = await pdftotext(pdf);
      assert.match(text, /Emoji 🎉 in Quire/u);
      assert.ok(text.includes(`Typed directly: ${TYPED.join(' ')}.`), text);
      assert.match(text, /Launch\s+🚀/u);
      assert.match(text, /Never in code: :smile: and 😀\./u);
      assert.equal(await rasterImages(pdf), 0);
    });
  }
});
