import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureDocument } from '../../../src/limits/budgets.js';
import { MAX_REMOTE_RESOURCES } from '../../../src/limits/plans.js';

const FEATURES = { images: true, html_blocks: true };
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('measuring a document before it is rendered', () => {
  it('should count data: images — Markdown images and HTML src and srcset — as resources, not Markdown', () => {
    const markdown = `![a](${PNG}) ![b](<${PNG}>)\n\n![c][ref]\n\n[ref]: ${PNG}\n\n<img src="${PNG}"><picture><source srcset="${PNG} 1x, ${PNG} 2x"><img src='${PNG}'></picture>`;
    const measure = measureDocument(markdown, FEATURES);
    assert.equal(measure.embeddedCount, 7);
    assert.equal(measure.embeddedBytes, 7 * 8);
    assert.equal(measure.markdownBytes, Buffer.byteLength(markdown) - 7 * 'iVBORw0KGgo='.length);
  });

  it('should count text that only looks like a data: URI — in code, prose or a link — as Markdown', () => {
    const payload = 'QUFB'.repeat(1000);
    const markdown = [
      '```',
      ...Array.from({ length: 600 }, () => `data:image/png;base64,${payload}`),
      '```',
      `Inline \`![x](data:image/png;base64,${payload})\` and plain data:image/png;base64,${payload}`,
      `[a link](data:text/html;base64,${payload})`,
    ].join('\n');
    const measure = measureDocument(markdown, FEATURES);
    assert.deepEqual({ count: measure.embeddedCount, bytes: measure.embeddedBytes }, { count: 0, bytes: 0 });
    assert.equal(measure.markdownBytes, Buffer.byteLength(markdown), 'every byte is Markdown');
  });

  it('should read HTML as text when HTML blocks are off', () => {
    const measure = measureDocument(`<img src="${PNG}">`, { images: true, html_blocks: false });
    assert.equal(measure.embeddedCount, 0);
  });

  it('should count distinct remote images, by the URL the loader requests, to one past the most a document may link', () => {
    const sameImage = Array.from({ length: 2000 }, (_, i) => `![x](https://img.example.com/a.png#${i})`).join(' ');
    assert.equal(measureDocument(sameImage, FEATURES).remoteCount, 1, 'fragments are never sent: one image');
    const many = Array.from({ length: 5000 }, (_, i) => `![x](https://img.example.com/${i}.png)`).join(' ');
    assert.equal(measureDocument(many, FEATURES).remoteCount, MAX_REMOTE_RESOURCES + 1);
    assert.equal(measureDocument(many, { images: false, html_blocks: true }).remoteCount, 0);
  });
});
