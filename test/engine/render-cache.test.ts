/**
 * A document rendered again as it is edited, with a RenderCache: each render gives exactly the
 * PDF a render without the cache gives (tagged: the structure of reused blocks renumbered where
 * an edit moved it), while laying out only the blocks the edit changed and compressing only the
 * streams it changed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { render, renderFiles, RenderCache, type RenderOptions } from '#engine/index.js';
import { MOST_STREAM_BYTES, StreamCache } from '#engine/paint/stream-cache.js';
import { fixture } from '../support/fixtures.js';
import { qpdfCheck, structureText } from '../support/pdf-tools.js';
import { cacheParts } from '#engine/cache-parts.js';

const spec = readFileSync(createRequire(import.meta.url).resolve('commonmark-spec/spec.txt'), 'utf8');

/** The source with `words` added to the paragraph nearest `at` (0 start, 1 end). */
function withWords(source: string, at: number, words: string): string {
  const end = source.indexOf('\n\n', Math.floor(source.length * at));
  return `${source.slice(0, end)} ${words}${source.slice(end)}`;
}

/** Edits a writer makes, each on the last: words in a paragraph, a paragraph with a link and code near the start (every later structure id moves), a block deleted, a table cell changed. */
function edits(source: string): string[] {
  const words = withWords(source, 0.5, 'And a few words more.');
  const linked = words.replace('\n\n', '\n\nA [new link](https://example.com/new) and `code` here.\n\n');
  const blocks = linked.split('\n\n');
  const deleted = [...blocks.slice(0, 3), ...blocks.slice(4)].join('\n\n');
  const cell = deleted.replace(/\| *([A-Za-z]+) *\|/, '| $1 changed |');
  return [words, linked, deleted, cell, source];
}

async function sameAsUncached(source: string, settings: RenderOptions = {}): Promise<RenderCache> {
  // The kitchen sink's picture of example.com stands as its placeholder.
  const options: RenderOptions = { ...settings, resources: 'lenient' };
  const cache = new RenderCache();
  await render(source, { ...options, cache });
  for (const [index, edited] of edits(source).entries()) {
    const cached = await render(edited, { ...options, cache });
    const fresh = await render(edited, options);
    assert.ok(Buffer.from(cached.pdf).equals(Buffer.from(fresh.pdf)), `edit ${index}: the cached render differs from a fresh one`);
  }
  return cache;
}

describe('render cache', () => {
  it('should give the PDF a fresh render gives, edit after edit, on documents with every kind of block', async () => {
    for (const name of ['kitchen-sink.md', 'table-200.md', 'commander-readme.md', 'german.md']) await sameAsUncached(fixture(name));
    await sameAsUncached(fixture('kitchen-sink.md'), { features: { tagged: false } });
    const cache = await sameAsUncached(fixture('kitchen-sink.md'), { design: { columns: 2 } });
    // qpdf exits with an error on a damaged file.
    await qpdfCheck((await render(fixture('kitchen-sink.md'), { cache, resources: 'lenient', design: { columns: 2 } })).pdf);
  });

  it('should draw diagrams and highlight code once while a document is edited, and try a failed drawing again', async () => {
    const fence = (language: string, ...lines: string[]) => ['```' + language, ...lines, '```'].join('\n');
    const source = [
      '# Diagrams',
      'A paragraph about them.',
      fence('mermaid', 'flowchart LR', '  A[Start] --> B[End]'),
      fence('js', 'const answer = 42;'),
      fence('mermaid', 'pie', '  "Slice" : none'),
    ].join('\n\n');
    const cache = new RenderCache();
    const first = await render(source, { cache });
    assert.match(first.warnings.join('\n'), /diagram not drawn/i);
    assert.deepEqual(cacheParts(cache).codeBlocks.counts, { reused: 0, made: 3 });
    const edited = withWords(source, 0, 'And a few words more.');
    const cached = await render(edited, { cache });
    // The broken diagram is made again; the drawn one and the code are taken as they were.
    assert.deepEqual(cacheParts(cache).codeBlocks.counts, { reused: 2, made: 4 });
    assert.ok(Buffer.from(cached.pdf).equals(Buffer.from((await render(edited)).pdf)));
    // A different theme makes them again.
    await render(edited, { cache, design: { theme: 'dark' } });
    assert.deepEqual(cacheParts(cache).codeBlocks.counts, { reused: 2, made: 7 });
  });

  it('should renumber the structure of reused files when an edit of an earlier file moves it', async () => {
    const files = (first: string) => [
      { markdown: first, path: 'one.md' },
      { markdown: fixture('kitchen-sink.md'), path: 'two.md' },
    ];
    const cache = new RenderCache();
    const options: RenderOptions = { resources: 'lenient' };
    await renderFiles(files('# One\n\nA paragraph.'), { ...options, cache });
    const edited = files('# One\n\nA paragraph with a [link](https://example.com) and `code`.\n\n> A quote.');
    const cached = await renderFiles(edited, { ...options, cache });
    assert.ok(cacheParts(cache).blocks.counts.reused >= 15, `${cacheParts(cache).blocks.counts.reused} blocks reused`);
    assert.ok(Buffer.from(cached.pdf).equals(Buffer.from((await renderFiles(edited, options)).pdf)));
    // The second file's structure follows the first's new elements, in its own Part.
    assert.match(
      await structureText(cached.pdf),
      /"A paragraph with a "\n\s+Link \(inline\)[\s\S]*BlockQuote[\s\S]*\n {2}Part\n {4}H1 \(block\)\n\s+"Kitchen sink"/,
    );
  });

  it('should lay out only the blocks an edit changed and compress only the pages it changed', async () => {
    const cache = new RenderCache();
    const first = await render(spec, { cache });
    const blocks = cacheParts(cache).blocks.counts.laidOut;
    const streamBytes = cacheParts(cache).streams.keptBytes;
    await render(withWords(spec, 0.5, 'And a few words more.'), { cache });
    const { reused, laidOut } = cacheParts(cache).blocks.counts;
    assert.ok(reused > blocks * 0.9, `${reused} of ${blocks} blocks reused`);
    assert.ok(laidOut < blocks * 0.05, `${laidOut} blocks laid out again`);
    const added = cacheParts(cache).streams.keptBytes - streamBytes;
    assert.ok(added > 0 && added < streamBytes * 0.1, `${added} bytes compressed again of ${streamBytes} (${first.pages} pages)`);
  });

  it('should keep compressed streams within its budget whatever is compressed through it, the least recently used going first', () => {
    const cache = new StreamCache();
    // Random bytes do not compress: each stream weighs about its megabyte.
    const streams = Array.from({ length: Math.ceil(MOST_STREAM_BYTES / (1 << 20)) + 8 }, () => randomBytes(1 << 20));
    const compressed = streams.map((stream) => {
      const bytes = cache.deflate(stream);
      assert.ok(inflateSync(bytes).equals(stream), 'the stream compresses to what inflates back to it');
      assert.ok(cache.keptBytes <= MOST_STREAM_BYTES, `${cache.keptBytes} bytes kept`);
      return bytes;
    });
    assert.ok(cache.keptBytes > MOST_STREAM_BYTES * 0.9, 'the budget is used');
    // A kept stream comes back as the very bytes kept; one dropped is compressed anew.
    assert.equal(cache.deflate(streams.at(-1)!), compressed.at(-1), 'the newest is kept');
    assert.notEqual(cache.deflate(streams[0]!), compressed[0], 'the oldest was dropped');
  });
});
