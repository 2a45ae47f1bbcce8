/**
 * Which dollars open math (issue 18): GitHub's and Pandoc's rules, judged on the rendered PDF —
 * formulas are tagged Formula with their TeX as Alt, everything else must extract as text.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { pdftotext } from '../../support/pdf-tools.js';
import { structureAlts } from '../../support/pdf-content.js';

async function read(markdown: string): Promise<{ text: string; formulas: string[] }> {
  const { pdf } = await render(markdown, { features: { smart_typography: false } });
  const text = (await pdftotext(pdf)).replace(/\s+/g, ' ').trim();
  return { text, formulas: await structureAlts(pdf, 'Formula') };
}

/** The words a reader sees in a paragraph: its source without code span backticks. */
function plain(markdown: string): string {
  return markdown.replace(/`/g, '').replace(/\s+/g, ' ').trim();
}

async function assertText(markdown: string, shown = plain(markdown)): Promise<void> {
  const { text, formulas } = await read(markdown);
  assert.deepEqual(formulas, [], `${JSON.stringify(markdown)} typeset no formula`);
  assert.ok(text.includes(shown), `${JSON.stringify(markdown)} reads as ${JSON.stringify(shown)}, not ${JSON.stringify(text)}`);
}

describe('dollars that are not math', () => {
  it('keeps a mid-sentence $$ and a $$ in a code span as text (the paragraph of issue 18)', async () => {
    const words = 'then more words about the shell and its process number, and still more words after them';
    await assertText(`note the double $$ in the text, ${words} \`code with $$\` and more`);
    await assertText(`note the double $$in the text, ${words} \`code with $$\` and more`);
    await assertText(`note the double\n$$ in the text, ${words}\nthat end the line with $$\nand more`);
  });

  it('reads $$…$$ in running text as text', async () => {
    await assertText('the formula $$x^2$$ mid sentence');
    await assertText('$$ $$ $$ $$ $$');
  });

  it('keeps prices as text', async () => {
    await assertText('$5 and $10');
    await assertText('costs $5, or $10 with tax');
  });

  it('reads \\$ as a dollar', async () => {
    await assertText('a literal \\$x$ here', 'a literal $x$ here');
  });

  it('wants a non-space inside both dollars and no digit after the closing one', async () => {
    await assertText('a $ x$ b');
    await assertText('a $x $ b');
    await assertText('a $x$5 b');
    assert.deepEqual((await read('a $x$ b')).formulas, ['x']);
  });

  it('lets a code span win: a dollar before it does not close inside or after it', async () => {
    await assertText('$a `b$` c$');
    await assertText('pay $5 for `echo $HOME` and x$ more');
  });

  it('ends display math at a blank line', async () => {
    await assertText('$$\na\n\nb\n$$', '$$ a b $$');
  });

  it('reads 100,000 dollars in a row as text', async () => {
    const { text, formulas } = await read('$'.repeat(100_000));
    assert.deepEqual(formulas, []);
    assert.equal(text.replace(/[^$]/g, '').length, 100_000);
  });
});

describe('dollars that are math', () => {
  it('typesets a $$ block, a $$…$$ line of its own and a ```math fence as display math', async () => {
    assert.deepEqual((await read('$$\n x^2 \n$$')).formulas, ['x^2']);
    assert.deepEqual((await read('Before\n$$ y^2 $$\nafter.')).formulas, ['y^2']);
    assert.deepEqual((await read('$$ a +\nb $$')).formulas, ['a + b']);
    assert.deepEqual((await read('```math\nz^2\n```')).formulas, ['z^2']);
  });

  it('typesets GitHub’s $`…`$ as inline math, and a code span only between single dollars', async () => {
    const { text, formulas } = await read('Area $`\\pi r^2`$, cost $$`x`$$ and \\$`y`$.');
    assert.deepEqual(formulas, ['\\pi r^2']);
    assert.match(text, /cost \$\$x\$\$ and \$y\$\./);
  });

  it('typesets inline $…$ next to prices and escaped dollars', async () => {
    const { text, formulas } = await read('It costs $5, and $\\alpha$ is \\$3 or $a\\$b$.');
    assert.deepEqual(formulas, ['\\alpha', 'a\\$b']);
    assert.match(text, /It costs \$5, and/);
    assert.match(text, /is \$3 or/);
  });
});
