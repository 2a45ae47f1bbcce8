/**
 * Property tests (fast-check) against `quire serve` as a child process: random JSON bodies and
 * random bytes never crash the service or draw a 500; random Markdown documents built from
 * Markdown's constructs over a safe alphabet render, and every word of them is in the PDF's text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { pdftotext } from '../support/pdf-tools.js';
import { createAccounts, type SuiteAccount } from './support/accounts.js';
import { spawnService, type ServiceProcess } from './support/service-process.js';
import { bySuite } from './support/suite-mode.js';

const BODY_RUNS = bySuite(150, 1_500);
const DOCUMENT_RUNS = bySuite(30, 300);
const SEED = Number(process.env.QUIRE_SEED ?? 42);

describe('properties of the service', () => {
  let service: ServiceProcess;
  let account: SuiteAccount;

  before(async () => {
    service = await spawnService();
    [account] = (await createAccounts(service.dbFile, [
      { plan: 'pro', overrides: { documents: 10_000_000, requests_per_min: 1_000_000, concurrency: 100, timeout_s: 30 } },
    ])) as [SuiteAccount];
  });
  after(() => service.stop());

  it(`should never crash or answer 500 to random request bodies (${BODY_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(requestBody(), async ({ body, contentType }) => {
        const response = await fetch(`${service.url}/v1/render`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${account.key}`, ...(contentType !== undefined && { 'Content-Type': contentType }) },
          body: typeof body === 'string' ? body : Buffer.from(body),
        });
        const bytes = Buffer.from(await response.arrayBuffer());
        assert.notEqual(response.status, 500, bytes.toString().slice(0, 300));
        assert.equal(response.headers.get('cache-control'), 'no-store');
        if (response.status !== 200) assert.equal(typeof (JSON.parse(bytes.toString()) as { code: unknown }).code, 'string');
      }),
      { numRuns: BODY_RUNS, seed: SEED },
    );
    assert.equal(await Promise.race([service.exited, Promise.resolve('running')]), 'running');
  });

  it(`should keep every word of random Markdown documents (${DOCUMENT_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(markdownDocument(), async ({ markdown, words }) => {
        const response = await fetch(`${service.url}/v1/render`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'text/markdown' },
          body: markdown,
        });
        const pdf = new Uint8Array(await response.arrayBuffer());
        assert.equal(response.status, 200, Buffer.from(pdf).toString().slice(0, 300));
        const extracted = new Set((await pdftotext(pdf)).split(/[^a-z]+/));
        const lost = words.filter((word) => !extracted.has(word));
        assert.deepEqual(lost, [], 'words missing from the PDF text');
      }),
      { numRuns: DOCUMENT_RUNS, seed: SEED },
    );
  });
});

const FEATURES = ['mermaid', 'math', 'theme', 'images', 'html_blocks', 'embed_source', 'tagged', 'mathJax', 'x'];

/** JSON objects built around the request's own fields (right, wrong and unknown), and raw bytes. */
function requestBody(): fc.Arbitrary<{ body: string | Uint8Array; contentType: string | undefined }> {
  const value = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.double(),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.jsonValue({ maxDepth: 3 }),
  );
  const features = fc.dictionary(fc.constantFrom(...FEATURES), fc.oneof(fc.boolean(), fc.constantFrom('light', 'dark'), value), { maxKeys: 4 });
  const fields = fc.record(
    {
      markdown: fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 200 }), value),
      features: fc.oneof(features, value),
      output: fc.oneof(fc.constantFrom('pdf', 'json', 'upload'), value),
      filename: fc.oneof(fc.string({ unit: 'binary', maxLength: 100 }), value),
      resources: fc.oneof(fc.constantFrom('strict', 'lenient'), value),
      language: fc.oneof(fc.constantFrom('en', 'de-CH', 'ar', 'x'.repeat(70)), value),
      sign: fc.oneof(fc.constant(false), value),
      other: value,
    },
    { requiredKeys: [] },
  );
  const json = fields.map((record) => {
    const entries = Object.entries(record).map(([key, inner]) => [key === 'other' ? 'unknown_field' : key, inner] as const);
    return { body: JSON.stringify(Object.fromEntries(entries)), contentType: 'application/json' as string | undefined };
  });
  const raw = fc.record({
    body: fc.oneof(fc.uint8Array({ maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 400 })),
    contentType: fc.constantFrom(undefined, 'application/json', 'text/markdown', 'application/json; charset=latin1', 'image/png'),
  });
  return fc.oneof({ arbitrary: json, weight: 3 }, { arbitrary: raw, weight: 1 });
}

/** A document of Markdown blocks whose text is words of lowercase letters; `words` are all of them. */
function markdownDocument(): fc.Arbitrary<{ markdown: string; words: string[] }> {
  const word = fc.stringMatching(/^[a-z]{3,9}$/);
  const words = fc.array(word, { minLength: 1, maxLength: 6 });
  const inline = fc.oneof(
    words.map((w) => ({ text: w.join(' '), words: w })),
    words.map((w) => ({ text: `*${w.join(' ')}*`, words: w })),
    words.map((w) => ({ text: `**${w.join(' ')}**`, words: w })),
    words.map((w) => ({ text: `~~${w.join(' ')}~~`, words: w })),
    word.map((w) => ({ text: `\`${w}\``, words: [w] })),
    fc.tuple(words, word).map(([w, target]) => ({ text: `[${w.join(' ')}](https://example.com/${target})`, words: w })),
  );
  const paragraph = fc.array(inline, { minLength: 1, maxLength: 8 }).map((parts) => ({
    text: parts.map((part) => part.text).join(' '),
    words: parts.flatMap((part) => part.words),
  }));
  const block = fc.oneof(
    paragraph,
    fc.tuple(fc.integer({ min: 1, max: 6 }), paragraph).map(([level, p]) => ({ text: `${'#'.repeat(level)} ${p.text}`, words: p.words })),
    paragraph.map((p) => ({ text: `> ${p.text}`, words: p.words })),
    fc
      .array(paragraph, { minLength: 1, maxLength: 4 })
      .map((items) => ({ text: items.map((p) => `- ${p.text}`).join('\n'), words: items.flatMap((p) => p.words) })),
    fc
      .array(paragraph, { minLength: 1, maxLength: 4 })
      .map((items) => ({ text: items.map((p, i) => `${i + 1}. ${p.text}`).join('\n'), words: items.flatMap((p) => p.words) })),
    fc
      .array(paragraph, { minLength: 1, maxLength: 3 })
      .map((items) => ({ text: items.map((p, i) => `- [${i % 2 ? 'x' : ' '}] ${p.text}`).join('\n'), words: items.flatMap((p) => p.words) })),
    fc
      .array(words, { minLength: 1, maxLength: 4 })
      .map((lines) => ({ text: `\`\`\`\n${lines.map((l) => l.join(' ')).join('\n')}\n\`\`\``, words: lines.flat() })),
    fc.array(fc.tuple(word, word), { minLength: 1, maxLength: 5 }).map((rows) => ({
      text: `| ${rows[0]![0]} | ${rows[0]![1]} |\n|---|---|\n${rows
        .slice(1)
        .map(([a, b]) => `| ${a} | ${b} |`)
        .join('\n')}`,
      words: rows.flat(),
    })),
    fc.tuple(paragraph, paragraph).map(([body, note]) => ({ text: `${body.text}[^n]\n\n[^n]: ${note.text}`, words: [...body.words, ...note.words] })),
  );
  return fc.array(block, { minLength: 1, maxLength: 8 }).map((blocks) => ({
    // Footnote labels made unique, one definition each.
    markdown: blocks.map((b, i) => b.text.replaceAll('[^n]', `[^n${i}]`)).join('\n\n'),
    words: blocks.flatMap((b) => b.words),
  }));
}
