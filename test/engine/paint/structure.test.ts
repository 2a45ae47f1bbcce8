import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { fixture } from '../../support/fixtures.js';
import { pdfinfo, structureText } from '../../support/pdf-tools.js';
import { openPdf } from '../../support/pdfjs.js';

const PNG_1x1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('tagged structure', () => {
  it('should tag headings, paragraphs, lists, tables, links, code, quotes, notes and figures', async () => {
    const markdown = `${fixture('kitchen-sink.md')}\n\n![A red dot](${PNG_1x1} "The caption")\n`;
    const { pdf } = await render(markdown);
    const tree = await structureText(pdf);
    for (const role of [
      'Document',
      'H1',
      'H2',
      'P',
      'L',
      'LI',
      'Lbl',
      'LBody',
      'Table',
      'THead',
      'TBody',
      'TR',
      'TH',
      'TD',
      'Link',
      'Code',
      'BlockQuote',
      'Note',
      'Figure',
      'Caption',
      'TOC',
      'TOCI',
    ]) {
      assert.match(tree, new RegExp(`^\\s*${role}\\b`, 'm'), `no ${role} element`);
    }
    const info = await pdfinfo(pdf);
    assert.equal(info.Tagged, 'yes');
  });

  it('should give figures their alt text and headers their column scope', async () => {
    const { pdf } = await render(`![A red dot](${PNG_1x1})\n\n| H |\n|---|\n| c |`);
    const raw = Buffer.from(pdf).toString('latin1');
    assert.match(raw, /\/Alt \(A red dot\)/);
    assert.match(raw, /\/Scope \/Column/);
  });

  it('should read headings and paragraphs in document order', async () => {
    const { pdf } = await render('# One\n\nFirst.\n\n## Two\n\nSecond.');
    const tree = await structureText(pdf);
    assert.match(tree, /H1[\s\S]*"One"[\s\S]*P[\s\S]*"First\."[\s\S]*H2[\s\S]*"Two"[\s\S]*P[\s\S]*"Second\."/);
  });

  it('should mark page numbers as artifacts, outside the structure', async () => {
    const { pdf } = await render('Only text.');
    const tree = await structureText(pdf);
    assert.doesNotMatch(tree, /"1"/);
  });

  it('should identify itself as PDF/UA-1 with a language and displayed title', async () => {
    const { pdf } = await render('---\ntitle: Accessible\nlanguage: en-GB\n---\n\nText.');
    const raw = Buffer.from(pdf).toString('latin1');
    assert.match(raw, /pdfuaid:part>1</);
    assert.match(raw, /\/Lang \(en-GB\)/);
    assert.match(raw, /\/DisplayDocTitle true/);
    assert.equal((await pdfinfo(pdf)).Title, 'Accessible');
  });

  it('should write a title of XML markup into the XMP packet as text, never as markup', async () => {
    const title = `A & B </rdf:li></rdf:Alt></dc:title><?xpacket end="w"?><x:evil/> 'q'`;
    const { pdf } = await render(`---\ntitle: '${title.replaceAll("'", "''")}'\n---\n\nText.`);
    const { metadata } = await (await openPdf(pdf)).getMetadata();
    assert.equal(metadata?.get('dc:title'), title, 'an XML reader finds the whole title as the title');
    const packet = /<\?xpacket begin[\s\S]*?<\?xpacket end="w"\?>/.exec(Buffer.from(pdf).toString('utf8'))![0];
    assert.match(packet, /<\/x:xmpmeta>\s*<\?xpacket end="w"\?>$/, 'the packet ends where PDFKit ends it');
    assert.doesNotMatch(packet, /<x:evil/);
    assert.equal((await pdfinfo(pdf)).Title, title, 'the Info dictionary keeps the title as written');
  });

  it('should omit the structure when tagged is off', async () => {
    const { pdf } = await render('# Title\n\nText.', { features: { tagged: false } });
    assert.equal((await pdfinfo(pdf)).Tagged, 'no');
    assert.doesNotMatch(Buffer.from(pdf).toString('latin1'), /StructTreeRoot/);
  });
});
