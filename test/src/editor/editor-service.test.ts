/**
 * The web editor's service side over a real socket: previews drawn from layout frames (the PDF's
 * own pages, with a PREVIEW mark), counted per hour and never as documents; downloads through
 * the render flow, counted in credits_used and in no key's spending, sharing the account's
 * idempotency namespace; the page and its assets under a strict CSP.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { render } from '#engine/index.js';
import { PREVIEW_SECONDS } from '../../../src/limits/render-limits.js';
import { createAccount, errorBody, render as renderApi, startService, usage, type TestService } from '../../support/service-harness.js';
import { pdfFile, pdftotext } from '../../support/pdf-tools.js';

const run = promisify(execFile);

interface PreviewBody {
  pages: { hash: string; width: number; height: number; png: string | null; band: { base: string; top: number; height: number } | null }[];
  warnings: string[];
  previews_left: number;
  previews_per_hour: number;
}

const DOCUMENT =
  '# Editor preview\n\nThe quick brown fox jumps over the lazy dog, twice over, to fill a line or two of text.\n\n## Second heading\n\n- one\n- two\n';

describe('web editor service', () => {
  let service: TestService;

  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  function preview(key: string, body: unknown): Promise<Response> {
    return fetch(`${service.url}/editor/preview`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  function download(key: string, body: unknown, idempotencyKey: string): Promise<Response> {
    return fetch(`${service.url}/editor/download`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(body),
    });
  }

  async function report(key: string): Promise<{ credits_used: number; keys: { id: string; credits: number }[] }> {
    const response = await usage(service, key);
    assert.equal(response.status, 200);
    return (await response.json()) as { credits_used: number; keys: { id: string; credits: number }[] };
  }

  it("should answer the PDF's pages as watermarked PNGs, marked raster, and not draw again the pages the editor has", async () => {
    const account = await createAccount(service.store);
    const response = await preview(account.key, { markdown: DOCUMENT });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-service-delivery'), 'raster');
    assert.equal(response.headers.get('x-service-pages'), '1');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = (await response.json()) as PreviewBody;
    assert.equal(body.pages.length, 1);
    const page = body.pages[0]!;
    assert.match(page.hash, /^[0-9a-f]{32}$/);
    const image = PNG.sync.read(Buffer.from(page.png!, 'base64'));
    assert.equal(image.width, Math.round(page.width * 1.5));
    assert.equal(image.height, Math.round(page.height * 1.5));

    // The same page as pdftoppm draws the PDF at the same resolution: the text is where the PDF has it.
    const pdf = (await render(DOCUMENT)).pdf;
    const file = pdfFile(pdf);
    await run('pdftoppm', ['-png', '-r', '108', '-singlefile', file, file]);
    const printed = PNG.sync.read(readFileSync(`${file}.png`));
    assert.equal(printed.width, image.width);
    const ink = darkPixels(image);
    const printedInk = darkPixels(printed);
    assert.ok(ink.size > 2000, `the preview has text (${ink.size} dark pixels)`);
    const shared = [...ink].filter((pixel) => nearby(printedInk, pixel, image.width)).length;
    assert.ok(shared / ink.size > 0.95, `${((100 * shared) / ink.size).toFixed(1)}% of the preview's ink is where the PDF has ink`);
    assert.ok(reddish(image) > 20_000, 'the PREVIEW mark is visible');

    const again = (await (await preview(account.key, { markdown: DOCUMENT, known_pages: [page.hash] })).json()) as PreviewBody;
    assert.equal(again.pages[0]!.hash, page.hash);
    assert.equal(again.pages[0]!.png, null, 'a page the editor has is not drawn again');
    const edited = (await (await preview(account.key, { markdown: `${DOCUMENT}\nOne more line.\n`, known_pages: [page.hash] })).json()) as PreviewBody;
    assert.notEqual(edited.pages[0]!.hash, page.hash);
    assert.ok(edited.pages[0]!.png);
    assert.equal(edited.pages[0]!.band, null, 'no picture shown to draw over: the whole page');

    // Shown the first picture, the line added comes back as a band of the page, over that picture.
    const banded = (await (
      await preview(account.key, { markdown: `${DOCUMENT}\nOne more line.\n`, known_pages: [page.hash], shown_pages: [page.hash] })
    ).json()) as PreviewBody;
    const band = banded.pages[0]!.band!;
    assert.equal(band.base, page.hash);
    const strip = PNG.sync.read(Buffer.from(banded.pages[0]!.png!, 'base64'));
    assert.equal(strip.width, image.width);
    assert.equal(strip.height, Math.round(band.height * 1.5));
    assert.ok(strip.height < image.height / 4, `a band of ${strip.height} rows`);
    assert.ok(band.top > 100, `below the lines that did not change (${band.top} pt)`);
  });

  it('should draw only the pages around the one in view, and refuse a focus or known pages that are not pages, each refusal counted as a preview', async () => {
    const account = await createAccount(service.store, { overrides: { previews_per_hour: 100 } });
    const long = Array.from({ length: 40 }, (_, i) => `## Part ${i + 1}\n\n${'Words to fill a page, set again and again. '.repeat(60)}`).join('\n\n');
    const body = (await (await preview(account.key, { markdown: long, focus_page: 12 })).json()) as PreviewBody;
    assert.ok(body.pages.length > 20, `${body.pages.length} pages`);
    assert.deepEqual(
      body.pages.flatMap((page, index) => (page.png === null ? [] : [index])),
      [8, 9, 10, 11, 12, 13, 14, 15, 16],
    );
    for (const bad of [
      { focus_page: -1 },
      { focus_page: 1.5 },
      { focus_page: '3' },
      { known_pages: ['nope'] },
      { shown_pages: 'nope' },
      { shown_pages: [7] },
    ]) {
      const refused = await preview(account.key, { markdown: '# Bad', ...bad });
      assert.equal(refused.status, 400, JSON.stringify(bad));
      assert.equal(((await refused.json()) as { code: string }).code, 'invalid_request');
    }
    assert.equal(
      ((await (await preview(account.key, { markdown: '# Counted' })).json()) as PreviewBody).previews_left,
      92,
      'the six refusals were counted like previews',
    );
  });

  it('should count previews per hour, refuse past the limit with Retry-After, and never spend documents or requests per minute', async () => {
    const account = await createAccount(service.store, { overrides: { previews_per_hour: 2, requests_per_min: 1 } });
    const first = (await (await preview(account.key, { markdown: '# One' })).json()) as PreviewBody;
    assert.equal(first.previews_per_hour, 2);
    assert.equal(first.previews_left, 1);
    assert.equal(((await (await preview(account.key, { markdown: '# Two' })).json()) as PreviewBody).previews_left, 0);
    const refused = await preview(account.key, { markdown: '# Three' });
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    assert.deepEqual(await errorBody(refused), {
      code: 'rate_limited',
      error: "Over the account's limit previews_per_hour = 2.",
      limit: { name: 'previews_per_hour', value: 2, plan: 'starter' },
    });
    // The one request this minute is still free for the API, and nothing was charged.
    const rendered = await renderApi(service, account.key, '# API');
    assert.equal(rendered.status, 200);
    await rendered.arrayBuffer();
    assert.equal((await report(account.key)).credits_used, 1);
  });

  it('should report a bad front matter as the SPEC code, and a missing image as a warning with a placeholder page', async () => {
    const account = await createAccount(service.store);
    const bad = await preview(account.key, { markdown: '---\ntheme: blue\n---\n\n# Hi' });
    assert.equal(bad.status, 422);
    const body = (await bad.json()) as { code: string; error: string };
    assert.equal(body.code, 'render_failed');
    assert.match(body.error, /front matter: theme must be light or dark/);
    const missing = (await (await preview(account.key, { markdown: '# Hi\n\n![gone](data:image/png;base64,AAAA)' })).json()) as PreviewBody;
    assert.equal(missing.pages.length, 1);
    assert.match(missing.warnings[0]!, /^image 1 .*could not be loaded/);
  });

  it("should count an embedded image against the plan's resource budget, spending the preview as a refused API request spends its minute", async () => {
    const account = await createAccount(service.store, { plan: 'free', overrides: { previews_per_hour: 5 } });
    const image = Buffer.alloc(2 * 1024 * 1024, 7).toString('base64');
    const refused = await preview(account.key, { markdown: `# Big\n\n![big](data:image/png;base64,${image})` });
    assert.equal(refused.status, 413);
    const body = (await refused.json()) as { code: string; limit: { name: string } };
    assert.equal(body.code, 'payload_too_large');
    assert.equal(body.limit.name, 'resources_mb');
    const after = (await (await preview(account.key, { markdown: '# Small' })).json()) as PreviewBody;
    assert.equal(after.previews_left, 3, 'the refused preview was counted, and nothing else');
    assert.equal((await report(account.key)).credits_used, 0);
  });

  it("should charge an editor download once per Idempotency-Key, in credits_used and in no key's spending, sharing the API's key namespace", async () => {
    const account = await createAccount(service.store);
    const markdown = '# Downloaded\n\nText typed in the editor.';
    const [a, b] = await Promise.all([download(account.key, { markdown }, 'click-1'), download(account.key, { markdown }, 'click-1')]);
    const answers = [a, b].map((response) => response.status).sort();
    assert.ok(answers[0] === 200 && (answers[1] === 200 || answers[1] === 409), `double click answered ${answers}`);
    const delivered = a.status === 200 ? a : b;
    assert.equal(delivered.headers.get('x-service-delivery'), 'vector');
    assert.equal(delivered.headers.get('content-type'), 'application/pdf');
    const pdf = new Uint8Array(await delivered.arrayBuffer());
    assert.match(await pdftotext(pdf), /Downloaded\s+Text typed in the editor\./);
    for (const other of [a, b]) if (other !== delivered) await other.arrayBuffer();

    const replay = await download(account.key, { markdown }, 'click-1');
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('x-service-replay'), 'true');
    await replay.arrayBuffer();
    // The API sees the editor's key: same account, same namespace.
    const viaApi = await renderApi(service, account.key, { markdown }, { 'Idempotency-Key': 'click-1' });
    assert.equal(viaApi.headers.get('x-service-replay'), 'true');
    await viaApi.arrayBuffer();

    assert.deepEqual(await report(account.key), { ...(await report(account.key)), credits_used: 1, keys: [] });
    const api = await renderApi(service, account.key, '# By the API');
    await api.arrayBuffer();
    const after = await report(account.key);
    assert.equal(after.credits_used, 2);
    assert.deepEqual(
      after.keys.map((key) => [key.id, key.credits]),
      [[account.keyId, 1]],
    );
  });

  it('should serve the editor page under a strict CSP, its hashed assets for a year, and redirect / to it', async () => {
    const page = await fetch(`${service.url}/editor`);
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy')!;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'/);
    const html = await page.text();
    const nonce = /data-style-nonce="([^"]+)"/.exec(html)![1]!;
    assert.ok(csp.includes(`'nonce-${nonce}'`));
    const assets = [...html.matchAll(/(?:src|href)="(\/editor\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    assert.equal(assets.length, 2);
    assert.doesNotMatch(html, /https?:\/\//, 'the page names no other origin');
    for (const asset of assets) {
      const response = await fetch(`${service.url}${asset}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const text = await response.text();
      assert.doesNotMatch(text, /\b(import|fetch)\(\s*["']https?:/, `${asset} loads nothing from elsewhere`);
    }
    assert.equal((await fetch(`${service.url}/editor/assets/nothing-here.js`)).status, 404);
    assert.equal((await fetch(`${service.url}/editor/assets/..%2Fmanifest.json`)).status, 404);
    const root = await fetch(`${service.url}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/editor');
    const wrong = await fetch(`${service.url}/editor/preview`);
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'POST');
  });
});

/** Pixels darker than text grey, as indexes. */
function darkPixels(image: PNG): Set<number> {
  const dark = new Set<number>();
  for (let i = 0; i < image.width * image.height; i += 1) {
    const [r, g, b] = [image.data[4 * i]!, image.data[4 * i + 1]!, image.data[4 * i + 2]!];
    if (r < 110 && g < 110 && b < 110) dark.add(i);
  }
  return dark;
}

/** A dark pixel of the other image within one pixel (antialiasing differs between the two rasterisers). */
function nearby(ink: Set<number>, pixel: number, width: number): boolean {
  for (let dy = -1; dy <= 1; dy += 1) for (let dx = -1; dx <= 1; dx += 1) if (ink.has(pixel + dy * width + dx)) return true;
  return false;
}

function reddish(image: PNG): number {
  let count = 0;
  for (let i = 0; i < image.width * image.height; i += 1) {
    const [r, g, b] = [image.data[4 * i]!, image.data[4 * i + 1]!, image.data[4 * i + 2]!];
    if (r > 200 && g < 225 && b < 225 && r - g > 25) count += 1;
  }
  return count;
}

describe('editor previews and the render queue', () => {
  it('should give back the preview a full queue refused (503 queue_full), so it costs none of the hour', async () => {
    const service = await startService({ standIn: true, deployment: { workers: 1, queueLimit: 1 } });
    try {
      const flooder = await createAccount(service.store, { plan: 'scale' });
      const writer = await createAccount(service.store, { overrides: { previews_per_hour: 10 } });
      const gate = path.join(service.dir, 'gate');
      // One render in the only worker and one in the queue, both waiting on the gate.
      const held = [1, 2].map((n) => renderApi(service, flooder.key, `gate:${gate}\n# Held ${n}`));
      let refused: Response | undefined;
      let drawn = 0;
      for (let attempt = 0; attempt < 200 && refused?.status !== 503; attempt += 1) {
        refused = await fetch(`${service.url}/editor/preview`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${writer.key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ markdown: '# Waiting' }),
        });
        if (refused.status === 200) drawn += 1;
        if (refused.status !== 503) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(refused!.status, 503);
      assert.equal((await errorBody(refused!)).code, 'queue_full');
      writeFileSync(gate, '');
      assert.deepEqual(
        (await Promise.all(held)).map((response) => response.status),
        [200, 200],
      );
      assert.equal(await service.store.tokensHeld(writer.id, 'preview', 10), drawn, 'the refused preview was given back');
    } finally {
      await service.close();
    }
  });

  it("should stop a preview at its own time limit, shorter than the plan's render time, freeing the worker", async () => {
    const service = await startService({ standIn: true, deployment: { workers: 1 } });
    try {
      const writer = await createAccount(service.store, { plan: 'scale' });
      const started = performance.now();
      const stopped = await fetch(`${service.url}/editor/preview`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${writer.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ markdown: 'hang' }),
      });
      const seconds = (performance.now() - started) / 1000;
      assert.equal(stopped.status, 422);
      const body = await errorBody(stopped);
      assert.equal(body.code, 'render_timeout');
      assert.deepEqual(body.limit, { name: 'timeout_s', value: PREVIEW_SECONDS, plan: null });
      assert.ok(seconds >= PREVIEW_SECONDS && seconds < PREVIEW_SECONDS + 5, `${seconds} s, the plan allows 120`);
      const next = await renderApi(service, writer.key, '# After');
      assert.equal(next.status, 200);
    } finally {
      await service.close();
    }
  });
});
