import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { fixture } from '../../support/fixtures.js';
import { markedSequences, type MarkedSequence } from '../../support/pdf-content.js';
import { pdftotext, pixel, structureText } from '../../support/pdf-tools.js';

type Rgb = [number, number, number];

/** GitHub's alerts in its light theme: kind, title, colour of rule, icon and title. */
const KINDS: Array<{ marker: string; title: string; light: Rgb }> = [
  { marker: 'NOTE', title: 'Note', light: [0x09, 0x69, 0xda] },
  { marker: 'TIP', title: 'Tip', light: [0x1a, 0x7f, 0x37] },
  { marker: 'IMPORTANT', title: 'Important', light: [0x82, 0x50, 0xdf] },
  { marker: 'WARNING', title: 'Warning', light: [0x9a, 0x67, 0x00] },
  { marker: 'CAUTION', title: 'Caution', light: [0xd1, 0x24, 0x2f] },
];

const alert = (marker: string, body = 'The body of the alert.') => `> [!${marker}]\n> ${body}\n`;

async function renderAlert(marker: string, theme: 'light' | 'dark' = 'light') {
  const { pdf } = await render(alert(marker), { features: { theme } });
  return { pdf, sequences: (await markedSequences(pdf)).filter((sequence) => sequence.colors.length > 0) };
}

/**
 * The alert's colour: the one its title (the first paragraph) is set in, checked to be the colour
 * of its rule and icon too (two artifacts filled with it).
 */
function alertColor(sequences: readonly MarkedSequence[]): Rgb {
  const title = sequences.find((sequence) => sequence.tag === 'P')!.colors[0]!;
  const drawn = sequences.filter((sequence) => sequence.tag === 'Artifact').flatMap((sequence) => sequence.colors);
  assert.ok(drawn.filter((color) => color.join() === title.join()).length >= 2, `rule and icon in the title's colour ${title}`);
  return title;
}

/** WCAG 2 contrast ratio of two sRGB colours. */
function contrast(a: Rgb, b: Rgb): number {
  const luminance = (rgb: Rgb) => {
    const [r, g, b] = rgb.map((channel) => {
      const c = channel / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as Rgb;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('GitHub alerts', () => {
  it("should print each kind's title and body, and never its marker", async () => {
    for (const { marker, title } of KINDS) {
      // GitHub takes the marker in any case.
      for (const written of [marker, marker.toLowerCase()]) {
        const text = await pdftotext((await render(alert(written, `Body of ${written}.`))).pdf);
        assert.match(text, new RegExp(`^${title}\\n+Body of ${written}\\.$`, 'm'), `${written}: title, then body`);
        assert.doesNotMatch(text, /\[!/, `${written}: the marker is not printed`);
      }
    }
  });

  it("should draw the rule, the icon and the title in GitHub's colour for the kind, and the body as ordinary text", async () => {
    const { sequences: plain } = await render('Ordinary text.').then(async ({ pdf }) => ({ sequences: await markedSequences(pdf) }));
    const textColor = plain.find((sequence) => sequence.tag === 'P')!.colors[0]!;
    for (const { marker, light } of KINDS) {
      const { sequences } = await renderAlert(marker);
      assert.deepEqual(alertColor(sequences), light, marker);
      const body = sequences.filter((sequence) => sequence.tag === 'P')[1]!;
      assert.deepEqual(body.colors[0], textColor, `${marker}: body in the text colour`);
    }
  });

  it('should keep every title at 4.5:1 contrast or more against the page, in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const { marker } of KINDS) {
        const { pdf, sequences } = await renderAlert(marker, theme);
        const page = await pixel(pdf, 2, 2);
        const ratio = contrast(alertColor(sequences), page);
        assert.ok(ratio >= 4.5, `${theme} ${marker}: ${ratio.toFixed(2)}:1`);
      }
    }
  });

  it('should give the dark theme its own alert colours', async () => {
    for (const { marker, light } of KINDS) {
      const { sequences } = await renderAlert(marker, 'dark');
      assert.notDeepEqual(alertColor(sequences), light, marker);
    }
  });

  it('should tag an alert as a Div whose first paragraph is its title, the icon outside the structure', async () => {
    const tree = await structureText((await render(`Before.\n\n${alert('WARNING', 'Mind the step.')}`)).pdf);
    assert.match(tree, /^ {2}Div\n {4}P \(block\)\n {6}"Warning"\n {4}P \(block\)\n {6}"Mind the step\."/m);
    assert.doesNotMatch(tree, /BlockQuote|Figure/);
  });

  it('should take a hard break or a blank line after the marker, as GitHub does', async () => {
    for (const markdown of ['> [!TIP]  \n> Hard break.\n', '> [!TIP]\\\n> Hard break.\n', '> [!TIP]\n>\n> Hard break.\n']) {
      const text = await pdftotext((await render(markdown)).pdf);
      assert.match(text, /^Tip\n+Hard break\.$/m, JSON.stringify(markdown));
    }
  });

  it('should leave ordinary block quotes where GitHub does: text after the marker, an unknown kind, no body, nested', async () => {
    const cases = [
      { markdown: '> [!NOTE] Same line\n> body\n', text: '[!NOTE] Same line' },
      { markdown: '> [!NOTE] *emphasis*\n> body\n', text: '[!NOTE] emphasis' },
      { markdown: '> [!FOO]\n> body\n', text: '[!FOO]' },
      { markdown: '> [!NOTE]\n', text: '[!NOTE]' },
      { markdown: '- item\n\n  > [!NOTE]\n  > body\n', text: '[!NOTE]' },
      { markdown: '> > [!NOTE]\n> > body\n', text: '[!NOTE]' },
    ];
    for (const { markdown, text } of cases) {
      const { pdf } = await render(markdown);
      assert.ok((await pdftotext(pdf)).includes(text), `${JSON.stringify(markdown)} prints ${text}`);
      const tree = await structureText(pdf);
      assert.match(tree, /BlockQuote/, JSON.stringify(markdown));
      assert.doesNotMatch(tree, /Div/, JSON.stringify(markdown));
    }
  });

  it('should draw every alert of a real README (fzf) as an alert', async () => {
    const markdown = fixture('real/readme-fzf.md');
    const written = markdown.match(/^> \[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]$/gm) ?? [];
    const { pdf } = await render(markdown, { resources: 'lenient' });
    const tree = await structureText(pdf);
    assert.ok(written.length > 0);
    assert.equal(tree.match(/^ {2}Div$/gm)?.length, written.length);
    assert.doesNotMatch(await pdftotext(pdf), /\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/);
  });
});
