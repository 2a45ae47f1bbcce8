/**
 * Lines and words, judged on real PDFs: where lines may break around inline code, how spaces
 * around it stretch, how a ligature meets a capital, and which faces draw polytonic Greek.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { fixture } from '../../support/fixtures.js';
import { pdffonts, pdftotext, wordBoxes, type WordBox } from '../../support/pdf-tools.js';
import { pageTextFonts } from '../../support/pdfjs.js';

const BODY_SIZE = 10.5;
/** Front matter that sets a language, so paragraphs are justified. */
const JUSTIFIED = '---\nlanguage: en\n---\n\n';

/** Two sentences of the Commander README with method names in code, and filler words from it. */
const EXCESS = 'By default it is not an error to pass more arguments than declared, but you can make this an error with `.allowExcessArguments(false)`.';
const ASYNC = 'You may supply an `async` action handler, in which case you call `.parseAsync` rather than `.parse`.';
const FILLER = 'The options can be accessed as properties on the Command object passed to the action handler'.split(' ');

/** The words of each line in reading order: words of one page whose bottoms lie within 3 pt (code is smaller than prose). */
type PlacedWord = WordBox & { page: number };

/** Each page's words, grouped into lines (by baseline) from the top, each left to right. */
function lines(pages: Array<{ words: WordBox[] }>): PlacedWord[][] {
  const sorted = pages.flatMap((page, index) => page.words.map((word) => ({ ...word, page: index + 1 }))).sort((a, b) => a.page - b.page || a.yMax - b.yMax);
  const out: PlacedWord[][] = [];
  for (const box of sorted) {
    const line = out.at(-1);
    if (line && line[0]!.page === box.page && Math.abs(line[0]!.yMax - box.yMax) < 3) line.push(box);
    else out.push([box]);
  }
  return out.map((words) => words.sort((a, b) => a.xMin - b.xMin));
}

describe('line breaks around inline code', () => {
  it('should never break after the leading "." of a method name, wherever the line ends', async () => {
    // Filler words of every count move the code spans across every position on the line,
    // at the full measure and at a block quote's narrower one.
    const paragraphs = FILLER.map((_, count) => `${FILLER.slice(0, count).join(' ')} ${EXCESS} ${ASYNC}`.trim());
    const markdown = JUSTIFIED + paragraphs.join('\n\n') + '\n\n' + paragraphs.map((text) => `> ${text}`).join('\n>\n');
    const text = await pdftotext((await render(markdown)).pdf);
    assert.doesNotMatch(text, /(^|\s)\.$/m, 'a line ends in a lone "."');
    assert.doesNotMatch(text, /^(allowExcessArguments|parseAsync|parse\b)/m, 'a line starts with a method name cut from its "."');
    assert.equal(text.match(/\.allowExcessArguments\(false\)/g)?.length, 2 * FILLER.length);
    // The space before the code is a break, though UAX #14 allows none before a ".".
    assert.match(text, /^\.allowExcessArguments/m, 'no line starts with the code span');
  });

  it('should never break inline code after the hyphens that open an option, wherever the line ends', async () => {
    // A line ending "git branch --" reads as a hyphenated "merged". Filler words of every count
    // move the code across two narrow columns, where the break fell there before.
    const words = 'one branch per question or fix named for it and merged often'.split(' ');
    const paragraphs = Array.from(
      { length: 60 },
      (_, count) =>
        `${Array.from({ length: count + 3 }, (_, index) => words[index % words.length]).join(' ')} \`git branch --merged\` lists what \`-d\` may delete.`,
    );
    const { pdf } = await render(`---\nlanguage: en\ncolumns: 2\n---\n\n${paragraphs.join('\n\n')}`);
    // Code is JetBrains Mono, 0.6 em a character, at 0.9 of the body size. A word cut across
    // lines extracts whole (its text rides on the first part) but its box covers only that part.
    const codeWidth = (text: string) => text.length * 0.6 * 0.9 * BODY_SIZE;
    const options = (await wordBoxes(pdf)).flatMap((page) => page.words).filter((word) => word.text === '--merged');
    assert.equal(options.length, paragraphs.length);
    const cut = options.filter((word) => word.xMax - word.xMin < codeWidth(word.text) - 2);
    assert.deepEqual(
      cut.map((word) => `${word.text} drawn ${(word.xMax - word.xMin).toFixed(1)} wide`),
      [],
    );
  });

  it('should keep every method name whole across the Commander README', async () => {
    const text = await pdftotext((await render(fixture('commander-readme.md'), { resources: 'lenient' })).pdf);
    assert.doesNotMatch(text, /(^|\s)\.$/m, 'a line ends in a lone "."');
    assert.match(text, /\.allowExcessArguments\(false\)/);
    assert.match(text, /\.executableDir\(\)/);
  });

  it('should stretch the spaces beside inline code like every other space on a justified line', async () => {
    const paragraphs = FILLER.slice(0, 8).map((_, count) => `${FILLER.slice(0, count).join(' ')} ${EXCESS} ${ASYNC} ${EXCESS}`.trim());
    const { pdf } = await render(JUSTIFIED + paragraphs.join('\n\n'));
    const all = lines(await wordBoxes(pdf));
    const rightEdge = Math.max(...all.map((line) => line.at(-1)!.xMax));
    const justified = all.filter((line) => line.at(-1)!.xMax > rightEdge - 0.5 && line.length > 3);
    assert.ok(justified.length >= 8, `justified lines: ${justified.length}`);
    let codeGaps = 0;
    for (const line of justified) {
      // A gap of a point or more is a space; less is code meeting its punctuation.
      const gaps = line
        .slice(1)
        .map((word, i) => ({ width: word.xMin - line[i]!.xMax, beforeCode: word.text.startsWith('.') }))
        .filter((gap) => gap.width > 1);
      codeGaps += gaps.filter((gap) => gap.beforeCode).length;
      const widths = gaps.map((gap) => gap.width);
      const spread = Math.max(...widths) - Math.min(...widths);
      assert.ok(spread < 0.02, `unequal spaces on "${line.map((word) => word.text).join(' ')}": ${widths.map((width) => width.toFixed(2)).join(', ')}`);
    }
    assert.ok(codeGaps >= 4, `spaces before code measured: ${codeGaps}`);
  });
});

describe('a ligature or an f before a capital', () => {
  const styles = [
    { name: 'regular', wrap: (text: string) => text },
    { name: 'italic', wrap: (text: string) => `*${text}*` },
    { name: 'bold', wrap: (text: string) => `**${text}**` },
  ];
  const markdown = styles.map(({ wrap }) => wrap('Call diffWords on offWhite, not diff Words or off White.')).join('\n\n');

  it('should extract "diffWords" and "offWhite" whole in every style', async () => {
    const text = await pdftotext((await render(markdown)).pdf);
    assert.equal(text.match(/Call diffWords on offWhite, not diff Words or off White\./g)?.length, styles.length, text);
  });

  it('should set the capital no further from the ligature than the ink needs, well under a word space', async () => {
    const all = lines(await wordBoxes((await render(markdown)).pdf));
    assert.equal(all.length, styles.length + 1, 'one line per style and the page number');
    for (const [index, { name }] of styles.entries()) {
      const width = (text: string) => {
        const box = all[index]!.find((word) => word.text.replace(/[.,]$/, '') === text);
        assert.ok(box, `${name}: "${text}" is not one word on "${all[index]!.map((word) => word.text).join(' ')}"`);
        return box.xMax - box.xMin;
      };
      // The joined word is as wide as its parts set apart, plus the kern between them.
      for (const [joined, first, second] of [
        ['diffWords', 'diff', 'Words'],
        ['offWhite', 'off', 'White'],
      ] as const) {
        const kern = (width(joined) - width(first) - width(second)) / BODY_SIZE;
        // Source Serif 4 kerns f and W 0.106 em apart (bold 0.134); their ink needs 0.064 (bold 0.084).
        assert.ok(kern >= 0 && kern < (name === 'bold' ? 0.085 : 0.065), `${name} ${joined}: ${kern.toFixed(3)} em between the f and the capital`);
      }
    }
  });
});

describe('polytonic Greek', () => {
  /** Iliad 1.1–5 and the Lord's Prayer (Matthew 6.9–13), in the plain, italic, bold and bold italic faces. */
  const ILIAD =
    'Μῆνιν ἄειδε θεὰ Πηληϊάδεω Ἀχιλῆος οὐλομένην, ἣ μυρί᾽ Ἀχαιοῖς ἄλγε᾽ ἔθηκε, πολλὰς δ᾽ ἰφθίμους ψυχὰς Ἄϊδι προΐαψεν ἡρώων, αὐτοὺς δὲ ἑλώρια τεῦχε κύνεσσιν οἰωνοῖσί τε πᾶσι· Διὸς δ᾽ ἐτελείετο βουλή.';
  const PRAYER =
    'Πάτερ ἡμῶν ὁ ἐν τοῖς οὐρανοῖς· ἁγιασθήτω τὸ ὄνομά σου· ἐλθέτω ἡ βασιλεία σου· γενηθήτω τὸ θέλημά σου, ὡς ἐν οὐρανῷ καὶ ἐπὶ γῆς· τὸν ἄρτον ἡμῶν τὸν ἐπιούσιον δὸς ἡμῖν σήμερον· καὶ ἄφες ἡμῖν τὰ ὀφειλήματα ἡμῶν, ὡς καὶ ἡμεῖς ἀφίεμεν τοῖς ὀφειλέταις ἡμῶν· καὶ μὴ εἰσενέγκῃς ἡμᾶς εἰς πειρασμόν, ἀλλὰ ῥῦσαι ἡμᾶς ἀπὸ τοῦ πονηροῦ.';
  const faces = [
    { wrap: (text: string) => text, style: 'Regular' },
    { wrap: (text: string) => `*${text}*`, style: 'Italic' },
    { wrap: (text: string) => `**${text}**`, style: 'Bold' },
    { wrap: (text: string) => `***${text}***`, style: 'BoldItalic' },
  ];
  const GREEK = /\p{Script=Greek}/u;

  /** Each Greek word of page 1 with the fonts its letters are drawn in, in order. */
  async function greekWordFonts(pdf: Uint8Array): Promise<Array<{ word: string; fonts: Set<string> }>> {
    const chars = (await pageTextFonts(pdf, 1)).flatMap(({ text, font }) => [...text].map((char) => ({ char, font })));
    const words: Array<{ word: string; fonts: Set<string> }> = [];
    let current: { word: string; fonts: Set<string> } | null = null;
    for (const { char, font } of chars) {
      if (/[\s,.·;]/u.test(char)) current = null;
      else {
        if (!current) words.push((current = { word: '', fonts: new Set() }));
        current.word += char;
        current.fonts.add(font);
      }
    }
    return words.filter(({ word }) => GREEK.test(word));
  }

  it('should draw each Greek word in one face, of the style around it, and extract the text as written', async () => {
    const markdown = faces.map(({ wrap }) => `${wrap(ILIAD)}\n\n${wrap(PRAYER)}`).join('\n\n');
    const { pdf } = await render(markdown);
    const text = (await pdftotext(pdf)).replace(/\s+/g, ' ');
    for (const passage of [ILIAD, PRAYER])
      assert.equal(text.split(passage).length - 1, faces.length, `"${passage.slice(0, 20)}…" extracted ${faces.length} times`);

    const words = await greekWordFonts(pdf);
    assert.equal(words.length, faces.length * (ILIAD + ' ' + PRAYER).split(' ').length);
    const mixed = words.filter(({ fonts }) => fonts.size > 1);
    assert.deepEqual(
      mixed.map(({ word, fonts }) => `${word}: ${[...fonts].join(' + ')}`),
      [],
      'words drawn in two faces',
    );
    // Paragraphs come in the order of `faces`, two each; every font of a paragraph has its style.
    const perFace = words.length / faces.length;
    for (const [index, { style }] of faces.entries()) {
      const used = new Set(words.slice(index * perFace, (index + 1) * perFace).flatMap(({ fonts }) => [...fonts]));
      const expected = style === 'Regular' ? ['NotoSerif-Regular', 'SourceSerif4-Regular'] : [`NotoSerif-${style}`, `SourceSerif4-${style}`];
      assert.deepEqual([...used].sort(), expected, `${style} paragraphs`);
    }
    const embedded = await pdffonts(pdf);
    for (const { style } of faces) {
      const noto = embedded.find((font) => font.name.endsWith(`+NotoSerif-${style}`));
      assert.ok(noto?.embedded && noto.subset && noto.unicode, `NotoSerif-${style} embedded as a subset with ToUnicode`);
    }
  });

  it('should draw decomposed Greek (base letters and combining marks) in the face that has the marks', async () => {
    const { pdf } = await render(ILIAD.normalize('NFD'));
    assert.ok((await pdftotext(pdf)).replace(/\s+/g, ' ').normalize('NFC').includes(ILIAD));
    // Source Serif 4 lacks the breathings, the circumflex and the iota subscript as marks.
    const needsNoto = /[\u0313\u0314\u0342\u0345]/u;
    const wrong = (await greekWordFonts(pdf)).filter(({ word, fonts }) => needsNoto.test(word.normalize('NFD')) && [...fonts].join() !== 'NotoSerif-Regular');
    assert.deepEqual(
      wrong.map(({ word, fonts }) => `${word}: ${[...fonts].join(' + ')}`),
      [],
    );
  });
});
