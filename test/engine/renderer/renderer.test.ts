/**
 * createRenderer: renders in worker threads, so the caller's event loop keeps running, a signal
 * or a time limit stops a render mid-way, a thread that dies is replaced, and the caller's
 * loaders serve the workers' resources. Judged on the PDFs (poppler) and on the host's timers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import {
  createRenderer,
  EmptyDocumentError,
  InvalidOptionError,
  PageLimitError,
  render,
  RenderCache,
  RendererBoundError,
  RendererBusyError,
  RendererClosedError,
  RenderTimeoutError,
  renderToFile,
  ResourceError,
  ResourceLoadError,
  type LoadContext,
  type Renderer,
  type ResourceLoader,
  type Features,
} from '#engine/index.js';
import { FIXTURES } from '../../support/fixtures.js';
import { pdfFile, pdfinfo, pdftotext, qpdfCheck } from '../../support/pdf-tools.js';
import { execFileSync } from 'node:child_process';

const PARAGRAPH =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. ';
/** About 720 KB of headed paragraphs: a second and more of typesetting on a fast machine, some 300 pages. */
const LONG = Array.from({ length: 1000 }, (_, i) => `## Section ${i}\n\n${PARAGRAPH.repeat(3)}\n`).join('\n');
const GRADIENT = readFileSync(path.join(FIXTURES, 'images/gradient.png'));

const scratch = mkdtempSync(path.join(tmpdir(), 'quire-renderer-'));

/** What `pdfimages -list` lists: one line per image, `width height colour`. */
function imageList(pdf: Uint8Array): string {
  return execFileSync('pdfimages', ['-list', pdfFile(pdf)], { encoding: 'utf8' });
}

/** Runs `work` with a 10 ms interval on this thread; how many times it fired and its longest gap. */
async function ticking<T>(work: () => Promise<T>): Promise<{ value: T; ticks: number; longestGapMs: number; ms: number }> {
  const started = performance.now();
  let last = started;
  let ticks = 0;
  let longestGapMs = 0;
  const interval = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    ticks += 1;
  }, 10);
  try {
    const value = await work();
    longestGapMs = Math.max(longestGapMs, performance.now() - last);
    return { value, ticks, longestGapMs, ms: performance.now() - started };
  } finally {
    clearInterval(interval);
  }
}

/** Resolves with how many milliseconds `promise` took to reject, and its error. */
async function rejection(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await promise;
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  assert.fail('the render should have failed');
}

describe('createRenderer', () => {
  let renderer: Renderer;
  /** How long the long document takes on a warm thread, measured once. */
  let longMs = 0;

  before(async () => {
    renderer = createRenderer({ threads: 1 });
    const started = performance.now();
    const { pages } = await renderer.render(LONG);
    longMs = performance.now() - started;
    assert.ok(pages > 100, `the long document has ${pages} pages`);
  });

  after(async () => {
    await renderer.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('should keep the caller’s event loop running during a long render', async (t) => {
    const { value, ticks, longestGapMs, ms } = await ticking(() => renderer.render(LONG));
    t.diagnostic(`render ${ms.toFixed(0)} ms, ${ticks} ticks of 10 ms, longest gap ${longestGapMs.toFixed(0)} ms`);
    assert.ok(ms > 500, `the render took ${ms.toFixed(0)} ms, long enough to judge`);
    assert.ok(value.pages > 100);
    // In the caller's thread the interval would not fire once; here it fires all along.
    assert.ok(ticks >= ms / 10 / 4, `${ticks} ticks in ${ms.toFixed(0)} ms`);
    assert.ok(longestGapMs < 250, `the longest gap between ticks was ${longestGapMs.toFixed(0)} ms`);
    assert.match(await pdftotext(value.pdf, { first: 1, last: 1 }), /Section 0\s+Lorem ipsum/);
  });

  it('should stop a render mid-way when its signal aborts, and render the next one', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { error, ms } = await rejection(renderer.render(LONG, { limits: { signal: controller.signal } }));
    assert.ok(error instanceof RenderTimeoutError, String(error));
    assert.equal((error.cause as DOMException).name, 'AbortError', 'the cause is the signal’s reason');
    assert.ok(ms < Math.min(600, longMs / 2), `rejected after ${ms.toFixed(0)} ms; the whole render takes ${longMs.toFixed(0)} ms`);

    const next = await renderer.render('# After the abort\n\nThe thread was replaced.');
    assert.match(await pdftotext(next.pdf), /After the abort\s+The thread was replaced\./);
  });

  it('should stop on AbortSignal.timeout, which never fires during a render on the caller’s thread', async () => {
    const { error, ms } = await rejection(renderer.render(LONG, { limits: { signal: AbortSignal.timeout(50) } }));
    assert.ok(error instanceof RenderTimeoutError);
    assert.equal((error.cause as DOMException).name, 'TimeoutError');
    assert.ok(ms < Math.min(600, longMs / 2), `rejected after ${ms.toFixed(0)} ms`);
  });

  it('should refuse at once a render whose signal has already aborted', async () => {
    await assert.rejects(renderer.render('# x', { limits: { signal: AbortSignal.abort() } }), RenderTimeoutError);
  });

  it('should take renders in order, and drop a waiting one whose signal aborts without disturbing the others', async () => {
    const order: string[] = [];
    const first = renderer.render(LONG).then(() => order.push('first'));
    const controller = new AbortController();
    const dropped = renderer.render('# Dropped', { limits: { signal: controller.signal } });
    const second = renderer.render('# Second').then(() => order.push('second'));
    const third = renderer.render('# Third').then(() => order.push('third'));
    controller.abort();
    const { error, ms } = await rejection(dropped);
    assert.ok(error instanceof RenderTimeoutError);
    assert.ok(ms < 100, `a waiting render is dropped at once (${ms.toFixed(0)} ms)`);
    await Promise.all([first, second, third]);
    assert.deepEqual(order, ['first', 'second', 'third']);
  });

  it('should give the same PDF as render() on the caller’s thread, options and all', async () => {
    const markdown = '---\ntitle: Same\n---\n\n# Same\n\nText with a [link](https://example.com) and a footnote.[^1]\n\n[^1]: Note.';
    const options = {
      features: { embed_source: true, theme: 'dark' as const },
      language: 'en',
      metadata: { author: 'Ada', date: new Date('2026-01-01T00:00:00Z') },
      design: { paper: 'a5' },
    };
    const inThread = await render(markdown, options);
    const pooled = await renderer.render(markdown, options);
    assert.deepEqual(Buffer.from(pooled.pdf), Buffer.from(inThread.pdf));
    assert.equal(pooled.pages, inThread.pages);
    assert.equal(pooled.title, 'Same');
    assert.deepEqual(pooled.warnings, inThread.warnings);
    assert.equal((await pdfinfo(pooled.pdf)).Author, 'Ada');
  });

  it('should reject with the engine’s own error classes and their fields', async () => {
    await assert.rejects(renderer.render(''), EmptyDocumentError);
    await assert.rejects(
      renderer.render('x', { features: { tasks: 'yes' } as Record<string, unknown> as Partial<Features> }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'features.tasks' && error.code === 'invalid_option',
    );
    const long = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} with enough words to take a line or two of the page.`).join('\n\n');
    await assert.rejects(
      renderer.render(long, { limits: { maxPages: 2 } }),
      (error: unknown) => error instanceof PageLimitError && error.limit === 2 && error.pagesReached === 3 && /more than 2 pages/.test(error.message),
    );
    await assert.rejects(
      renderer.render('>'.repeat(5000) + ' deep'),
      (error: unknown) => error instanceof RendererBoundError && error.bound === 'DepthLimit' && error.name === 'RendererBoundError',
    );
  });

  it('should refuse options that cannot reach a thread, naming them', async () => {
    await assert.rejects(
      renderer.render('x', { design: { paper: () => 'a4' } }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'design',
    );
    await assert.rejects(
      renderer.render('x', { loader: {} as ResourceLoader }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'loader',
    );
  });

  describe('resources', () => {
    it('should load an image through the caller’s loader, on the caller’s thread, and place it', async () => {
      const asked: Array<{ url: string; context: LoadContext }> = [];
      const loader: ResourceLoader = {
        async load(url, context) {
          asked.push({ url, context });
          await new Promise((resolve) => setTimeout(resolve, 20)); // an asynchronous source, as the network is
          return { bytes: GRADIENT, mediaType: 'image/png' };
        },
      };
      const result = await renderer.render('# Picture\n\n![A gradient](pictures/gradient.png "A gradient from the host")', {
        loader,
        limits: { resourceBytes: 1 << 20 },
      });
      assert.deepEqual(
        asked.map((ask) => ask.url),
        ['pictures/gradient.png'],
      );
      assert.ok(asked[0]!.context.signal instanceof AbortSignal);
      assert.equal(asked[0]!.context.remainingBytes, 1 << 20);
      assert.ok(asked[0]!.context.signal!.aborted, 'the loaders’ signal is aborted once the render is over');
      assert.equal(result.resources.total, 1);
      assert.equal(result.resources.bytes, GRADIENT.length);
      assert.match(imageList(result.pdf), /\s1200\s+600\s+rgb/);
      assert.match(await pdftotext(result.pdf), /A gradient from the host/);
    });

    it('should serve each joined file from its own loader', async () => {
      const from = (name: string): ResourceLoader => ({
        async load(url) {
          if (url !== `${name}.png`) throw new ResourceLoadError('not_found', `${url} is not in ${name}`);
          return { bytes: GRADIENT };
        },
      });
      const result = await renderer.renderFiles(
        [
          { markdown: '# One\n\n![first](one.png)', path: 'one.md', loader: from('one') },
          { markdown: '# Two\n\n![second](two.png)', path: 'guide/two.md', loader: from('two') },
        ],
        {},
      );
      assert.equal(result.resources.total, 2);
      assert.deepEqual(result.resources.failed, []);
      assert.match(await pdftotext(result.pdf), /One[\s\S]*Two/);
    });

    it('should fail as render() does when the loader refuses: strict, lenient, and the loader’s own error', async () => {
      const refusing: ResourceLoader = {
        async load() {
          throw new ResourceLoadError('forbidden', 'not this one');
        },
      };
      await assert.rejects(
        renderer.render('![x](secret.png)', { loader: refusing }),
        (error: unknown) => error instanceof ResourceError && error.resourceId === '1' && error.reason === 'forbidden',
      );
      const lenient = await renderer.render('Before.\n\n![missing chart](chart.png)\n\nAfter.', { loader: refusing, resources: 'lenient' });
      assert.deepEqual(lenient.resources.failed, ['1']);
      assert.match(await pdftotext(lenient.pdf), /Before\.[\s\S]*Image unavailable: missing chart[\s\S]*After\./);

      const own = new Error('the bucket is gone');
      const broken: ResourceLoader = {
        async load() {
          throw own;
        },
      };
      await assert.rejects(renderer.render('![x](a.png)', { loader: broken }), (error: unknown) => error === own);
    });
  });

  describe('output', () => {
    it('should write the PDF to a file', async () => {
      const file = path.join(scratch, 'pooled.pdf');
      const result = await renderer.renderToFile('# To a file\n\nWritten by a thread.', file);
      const written = readFileSync(file);
      assert.deepEqual(written, Buffer.from(result.pdf));
      await qpdfCheck(written);
      assert.match(await pdftotext(written), /To a file\s+Written by a thread\./);
    });

    it('should write nothing when the render fails', async () => {
      const file = path.join(scratch, 'never.pdf');
      await assert.rejects(renderer.renderToFile('', file), EmptyDocumentError);
      assert.throws(() => readFileSync(file), /ENOENT/);
    });

    it('should write the PDF to a stream and end it', async () => {
      const stream = new PassThrough();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      const result = await renderer.renderToStream('# To a stream', stream);
      assert.ok(stream.writableEnded);
      assert.deepEqual(Buffer.concat(chunks), Buffer.from(result.pdf));

      const file = path.join(scratch, 'streamed.pdf');
      await renderer.renderToStream('# To a file stream', createWriteStream(file));
      assert.match(await pdftotext(readFileSync(file)), /To a file stream/);
    });

    it('should write a file from render() on the caller’s thread too', async () => {
      const file = path.join(scratch, 'in-thread.pdf');
      await renderToFile('# In the thread', file);
      await qpdfCheck(readFileSync(file));
      assert.match(await pdftotext(readFileSync(file)), /In the thread/);
    });
  });

  it('should keep a RenderCache in the thread and give the PDF a render without it gives', async () => {
    const cache = new RenderCache();
    const first = '# Edited\n\nThe first version.\n\n```js\nconst a = 1;\n```';
    const second = '# Edited\n\nThe second version.\n\n```js\nconst a = 1;\n```';
    await renderer.render(first, { cache });
    const cached = await renderer.render(second, { cache });
    const plain = await render(second);
    assert.deepEqual(Buffer.from(cached.pdf), Buffer.from(plain.pdf));
  });
});

describe('createRenderer limits', () => {
  it('should stop a render at the renderer’s time limit, and render the next one', async () => {
    const renderer = createRenderer({ threads: 1, timeoutMs: 300 });
    try {
      await renderer.render('# Warm'); // the thread's start does not count: the limit runs from when a thread takes the render
      const { error, ms } = await rejection(renderer.render(LONG));
      assert.ok(error instanceof RenderTimeoutError, String(error));
      assert.equal(error.limitMs, 300);
      assert.ok(ms >= 290 && ms < 1_000, `rejected after ${ms.toFixed(0)} ms`);
      const next = await renderer.render('# In time\n\nA short one.');
      assert.match(await pdftotext(next.pdf), /In time\s+A short one\./);
    } finally {
      await renderer.close();
    }
  });

  it('should fail only the render that runs its thread out of memory, and go on with a new thread', async () => {
    const renderer = createRenderer({ threads: 1, maxMemoryMb: 32 });
    try {
      const table = `| a | b | c |\n|---|---|---|\n${'| x y z | 1 2 3 | foo bar |\n'.repeat(20_000)}`;
      const large = renderer.render(table);
      const waiting = renderer.render('# Waiting\n\nQueued behind the large table.');
      await assert.rejects(large, (error: unknown) => error instanceof RendererBoundError && error.bound === 'OutOfMemory');
      const queued = await waiting;
      assert.match(await pdftotext(queued.pdf), /Waiting\s+Queued behind the large table\./);
      const next = await renderer.render('# Still serving');
      assert.match(await pdftotext(next.pdf), /Still serving/);
    } finally {
      await renderer.close();
    }
  });

  it('should refuse a render past a full queue', async () => {
    const renderer = createRenderer({ threads: 1, maxQueue: 1 });
    try {
      await renderer.render('# Started'); // a render waiting for its thread to start counts as waiting
      const running = renderer.render('# One');
      const queued = renderer.render('# Two');
      await assert.rejects(renderer.render('# Three'), (error: unknown) => error instanceof RendererBusyError && error.maxQueue === 1);
      await Promise.all([running, queued]);
    } finally {
      await renderer.close();
    }
  });

  it('should finish what it was asked for on close, then refuse more', async () => {
    const renderer = createRenderer({ threads: 1 });
    const asked = renderer.render('# Before close');
    await renderer.close();
    assert.match(await pdftotext((await asked).pdf), /Before close/);
    await assert.rejects(renderer.render('# After close'), RendererClosedError);
  });

  it('should refuse settings it cannot use', () => {
    assert.throws(
      () => createRenderer({ threads: 0 }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'threads',
    );
    assert.throws(
      () => createRenderer({ maxMemoryMb: -1 }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'maxMemoryMb',
    );
    assert.throws(
      () => createRenderer({ timeoutMs: Number.NaN }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'timeoutMs',
    );
  });
});
