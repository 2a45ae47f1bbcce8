/** Page settings from front matter and the `design` option, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FrontMatterError, InvalidOptionError, render } from '#engine/index.js';
import { pageSizes, pdftotext, wordBoxes } from '../../support/pdf-tools.js';

const MM = 72 / 25.4;
const document = (frontMatter: string, body = 'Some text on the page.') => `---\n${frontMatter}\n---\n\n${body}\n`;

function assertSize(actual: { width: number; height: number }, width: number, height: number): void {
  assert.ok(Math.abs(actual.width - width) < 0.5 && Math.abs(actual.height - height) < 0.5, `${actual.width} × ${actual.height}, not ${width} × ${height}`);
}

describe('paper, orientation and margin', () => {
  it('should set each named paper and a size given with units', async () => {
    const cases: Array<[string, number, number]> = [
      ['a4', 210 * MM, 297 * MM],
      ['a5', 148 * MM, 210 * MM],
      ['letter', 612, 792],
      ['legal', 612, 1008],
      ['[6in, 9in]', 432, 648],
      ['[15cm, 200mm]', 150 * MM, 200 * MM],
      ['[400pt, 500]', 400, 500],
    ];
    for (const [paper, width, height] of cases) {
      const [size] = await pageSizes((await render(document(`paper: ${paper}`))).pdf);
      assertSize(size!, width, height);
    }
  });

  it('should turn the sheet for landscape and keep the text block inside it', async () => {
    const { pdf } = await render(document('paper: letter\norientation: landscape'));
    const [size] = await pageSizes(pdf);
    assertSize(size!, 792, 612);
    const [page] = await wordBoxes(pdf);
    assert.ok(page!.words.every((word) => word.xMax < 792 && word.yMax < 612));
  });

  it('should put the text block where the margins say, one length or four', async () => {
    const firstWord = async (frontMatter: string) => (await wordBoxes((await render(document(frontMatter))).pdf))[0]!.words[0]!;
    const even = await firstWord('margin: 1in');
    assert.ok(Math.abs(even.xMin - 72) < 1, `left edge at ${even.xMin}`);
    assert.ok(even.yMin > 72 && even.yMin < 72 + 14, `top at ${even.yMin}`);
    const four = await firstWord('margin: 10mm 20mm 30mm 40mm');
    assert.ok(Math.abs(four.xMin - 40 * MM) < 1, `left edge at ${four.xMin}`);
    assert.ok(four.yMin > 10 * MM && four.yMin < 10 * MM + 14, `top at ${four.yMin}`);
    const map = await firstWord('margin:\n  left: 50mm\n  top: 15mm');
    assert.ok(Math.abs(map.xMin - 50 * MM) < 1 && map.yMin > 15 * MM && map.yMin < 15 * MM + 14);
  });

  it('should wrap text at the right margin', async () => {
    const long = 'word '.repeat(400);
    const { pdf } = await render(document('paper: a4\nmargin: 10mm 60mm 10mm 10mm', long));
    const right = Math.max(...(await wordBoxes(pdf))[0]!.words.map((word) => word.xMax));
    assert.ok(right <= 210 * MM - 60 * MM + 0.5 && right > 210 * MM - 60 * MM - 30, `text ends at ${right}`);
  });

  it('should take the same keys from the design option, the front matter winning', async () => {
    const fromOption = await render('Text.', { design: { paper: 'a5' } });
    assertSize((await pageSizes(fromOption.pdf))[0]!, 148 * MM, 210 * MM);
    const overridden = await render(document('paper: letter'), { design: { paper: 'a5', orientation: 'landscape' } });
    assertSize((await pageSizes(overridden.pdf))[0]!, 792, 612);
  });
});

describe('forced page breaks', () => {
  it('should start a new page at each of the four spellings, ending a paragraph too', async () => {
    const body = [
      'One.',
      '\\newpage',
      'Two.',
      '',
      '\\pagebreak',
      '',
      'Three.',
      '',
      '<!-- pagebreak -->',
      '',
      'Four.',
      '<div style="page-break-after: always"></div>',
      '',
      'Five.',
    ].join('\n');
    for (const html_blocks of [true, false]) {
      const { pdf, pages } = await render(body, { features: { html_blocks } });
      assert.equal(pages, 5);
      for (const [index, word] of ['One.', 'Two.', 'Three.', 'Four.', 'Five.'].entries()) {
        assert.equal((await pdftotext(pdf, { first: index + 1, last: index + 1 })).trim().split('\n')[0], word);
      }
    }
  });

  it('should leave a break written in code, inline or indented text alone', async () => {
    const body = 'Text.\n\n```\n\\newpage\n<!-- pagebreak -->\n```\n\n    \\pagebreak\n\nSay `\\newpage` or \\newpage mid-line.\n';
    const { pdf, pages } = await render(body);
    assert.equal(pages, 1);
    const text = await pdftotext(pdf);
    assert.match(text, /\\newpage\n<!-- pagebreak -->/);
    assert.match(text, /\\pagebreak/);
    assert.match(text, /Say \\newpage or \\newpage mid-line/);
  });

  it('should not add an empty page for a break at the start or two in a row', async () => {
    const { pages } = await render('\\newpage\n\nOne.\n\n\\newpage\n\n\\newpage\n\nTwo.');
    assert.equal(pages, 2);
  });
});

describe('determinism', () => {
  it('should give the same bytes for the same input with every design key set', async () => {
    const source = document(
      'title: Same\nauthor: Ada\ndate: 2026\npaper: [6in, 9in]\norientation: landscape\nmargin: 15mm\nnumber_headings: true\nheader: "{title} {section}"\nfooter:\n  right: "{page} of {pages}"\nheader_first_page: true\npage_numbers: roman\nwatermark: DRAFT\ntitle_page: true\ntoc: true',
      '# One {#first}\n\nText.\n\n\\newpage\n\n## Two\n\nMore.',
    );
    const [a, b] = [await render(source), await render(source)];
    assert.equal(a.pages, 3, 'title page, contents and One, Two');
    assert.ok(Buffer.from(a.pdf).equals(Buffer.from(b.pdf)));
  });
});

describe('bad page settings', () => {
  const refused = async (frontMatter: string, pattern: RegExp) => {
    await assert.rejects(render(document(frontMatter)), (error: unknown) => {
      assert.ok(error instanceof FrontMatterError, String(error));
      assert.match(error.message, pattern);
      return true;
    });
  };

  it('should name the key and the value', async () => {
    await refused('paper: b7', /paper must be a4, a5, letter, legal .* not "b7"/);
    await refused('paper: [10in]', /paper must be .* not \["10in"\]/);
    await refused('paper: [3furlong, 9in]', /paper .* not \["3furlong","9in"\]/);
    await refused('paper: [0.5in, 9in]', /paper .* not \["0\.5in","9in"\]/);
    await refused('orientation: sideways', /orientation must be portrait or landscape, not "sideways"/);
    await refused('margin: wide', /margin must be .* not "wide"/);
    await refused('margin:\n  inside: 10mm', /margin must be .* not \{"inside":"10mm"\}/);
    await refused('paper: a5\nmargin: 70mm', /margin must be margins that leave at least 1 in of the 148mm × 210mm page .* not "70mm 70mm 70mm 70mm"/);
  });

  it('should refuse a bad design option under its own name', async () => {
    await assert.rejects(
      render('Text.', { design: { orientation: 'diagonal' } }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'design.orientation' && /not "diagonal"/.test(error.message),
    );
    await assert.rejects(render('Text.', { design: 'a4' as never }), (error: unknown) => error instanceof InvalidOptionError && error.key === 'design');
  });

  it('should ignore keys it does not know', async () => {
    const { pages } = await render(document('papper: b7\nfancy: {deep: [1, 2]}'));
    assert.equal(pages, 1);
  });
});
