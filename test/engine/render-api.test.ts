import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  EmptyDocumentError,
  FrontMatterError,
  InvalidOptionError,
  PageLimitError,
  RenderTimeoutError,
  RendererBoundError,
  ResourceError,
  render,
  type Features,
} from '#engine/index.js';
import { pdfinfo, pdftotext } from '../support/pdf-tools.js';

const PNG_1x1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('render()', () => {
  it('should return PDF bytes, a page count and phase timings', async () => {
    const result = await render('# Hello\n\nWorld.');
    assert.equal(Buffer.from(result.pdf.subarray(0, 5)).toString('latin1'), '%PDF-');
    assert.equal(result.pages, 1);
    assert.equal((await pdfinfo(result.pdf)).Pages, '1');
    for (const phase of ['setup', 'render', 'serialize'] as const) assert.ok(result.timings[phase] >= 0);
    assert.equal(result.title, 'Hello');
  });

  it('should give byte-identical PDFs for the same input and options', async () => {
    const markdown = '---\ntitle: Same\nlanguage: en\n---\n\n# Same\n\nText with a [link](https://example.com) and a footnote.[^1]\n\n[^1]: Note.';
    const first = await render(markdown, { features: { embed_source: true } });
    const second = await render(markdown, { features: { embed_source: true } });
    assert.deepEqual(Buffer.from(first.pdf), Buffer.from(second.pdf));
  });

  it('should refuse unknown feature switches, naming the key', async () => {
    // As JavaScript or JSON would send them: TypeScript refuses each of these before they run.
    await assert.rejects(
      render('x', { features: asSent({ smartTypography: false }) }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'features.smartTypography',
    );
    await assert.rejects(
      render('x', { features: asSent({ tasks: 'yes' }) }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'features.tasks',
    );
    await assert.rejects(
      render('x', { features: asSent({ theme: 'sepia' }) }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'features.theme',
    );
  });

  it('should refuse an empty document and a malformed language', async () => {
    await assert.rejects(render(''), EmptyDocumentError);
    await assert.rejects(render('x', { language: 'not a tag' }), InvalidOptionError);
    await assert.rejects(render('x', { language: 'a'.repeat(64) }), InvalidOptionError);
  });

  it('should report invalid YAML front matter with its line', async () => {
    await assert.rejects(
      render('---\ntitle: [unclosed\n---\n\nText'),
      (error: unknown) => error instanceof FrontMatterError && /front matter/.test(error.message),
    );
    await assert.rejects(render('---\ntheme: sepia\n---\n\nText'), FrontMatterError);
  });

  it('should stop at the page limit, saying how far it got', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} with enough words to take a line or two of the page.`).join('\n\n');
    await assert.rejects(
      render(long, { limits: { maxPages: 2 } }),
      (error: unknown) => error instanceof PageLimitError && error.limit === 2 && error.pagesReached === 3,
    );
  });

  it('should stop with RenderTimeoutError when its signal aborts', async () => {
    await assert.rejects(render('text', { limits: { signal: AbortSignal.abort() } }), RenderTimeoutError);
  });

  it('should refuse nesting past the depth bound before parsing', async () => {
    await assert.rejects(render('>'.repeat(5000) + ' deep'), (error: unknown) => error instanceof RendererBoundError && error.bound === 'DepthLimit');
    await assert.rejects(
      render(Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n')),
      (error: unknown) => error instanceof RendererBoundError && error.bound === 'DepthLimit',
    );
  });

  it('should refuse more elements than the element bound', async () => {
    await assert.rejects(
      render('a *b* '.repeat(2000), { limits: { bounds: { maxElements: 1000 } } }),
      (error: unknown) => error instanceof RendererBoundError && error.bound === 'ElementLimit',
    );
  });

  it('should draw data: URI images and count them', async () => {
    const result = await render(`![a dot](${PNG_1x1})`);
    const { digest, ...counts } = result.resources;
    assert.deepEqual(counts, { total: 1, failed: [], bytes: Buffer.from(PNG_1x1.split(',')[1]!, 'base64').length });
    assert.match(digest, /^[0-9a-f]{64}$/);
    const again = await render(`![a dot](${PNG_1x1})`);
    assert.equal(again.resources.digest, digest, 'the same resource content gives the same digest');
  });

  it('should fail strict renders on a missing resource with its position, never its URL', async () => {
    await assert.rejects(render(`![one](${PNG_1x1}) ![two](https://example.invalid/secret.png)`), (error: unknown) => {
      assert.ok(error instanceof ResourceError);
      assert.equal(error.resourceId, '2');
      assert.doesNotMatch(error.message, /example\.invalid|secret/);
      return true;
    });
  });

  it('should draw a placeholder for a failed resource in lenient mode and list it', async () => {
    const result = await render(`Before.\n\n![missing chart](https://example.invalid/chart.png)\n\nAfter.`, { resources: 'lenient' });
    assert.deepEqual(result.resources.failed, ['1']);
    const text = await pdftotext(result.pdf);
    assert.match(text, /Before\.[\s\S]*Image unavailable: missing chart[\s\S]*After\./);
  });

  it('should refuse images whose declared size is too large, before decoding them', async () => {
    const header = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const size = Buffer.alloc(8);
    size.writeUInt32BE(100_000, 0);
    size.writeUInt32BE(100_000, 4);
    const png = `data:image/png;base64,${Buffer.concat([header, size, Buffer.alloc(20)]).toString('base64')}`;
    await assert.rejects(render(`![huge](${png})`), (error: unknown) => error instanceof RendererBoundError && error.bound === 'ImageDimensionsTooLarge');
  });

  it('should leave every image out when images is off', async () => {
    const result = await render(`Text ![dot](${PNG_1x1}) more.`, { features: { images: false } });
    assert.equal(result.resources.total, 0);
  });
});

/** Switches as an untyped caller sends them. */
function asSent(features: Record<string, unknown>): Partial<Features> {
  return features as Partial<Features>;
}
