import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createAccount, errorBody, render, reservations, startService, usage, type TestAccount, type TestService } from '../../support/service-harness.js';

const README = '# Quire\n\nMarkdown to *accessible* PDF.\n\n- one\n- two\n\n```ts\nconst x = 1;\n```\n';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('rendering', () => {
  let service: TestService;
  let account: TestAccount;

  before(async () => {
    service = await startService();
    account = await createAccount(service.store, { plan: 'starter' });
  });
  after(() => service.close());

  it('should stream a PDF with the SPEC headers and charge one document', async () => {
    const response = await render(service, account.key, { markdown: README });
    assert.equal(response.status, 200);
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(Buffer.from(pdf.subarray(0, 5)).toString('latin1'), '%PDF-');
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="document.pdf"');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('x-service-delivery'), 'vector');
    assert.equal(response.headers.get('x-service-pages'), '1');
    assert.equal(response.headers.get('x-service-sha256'), sha256(pdf));
    assert.equal(response.headers.get('x-service-replay'), null);
    assert.equal(response.headers.get('x-service-signature'), null);
    assert.match(
      response.headers.get('server-timing') ?? '',
      /^queue;dur=[\d.]+, setup;dur=[\d.]+, render;dur=[\d.]+, serialize;dur=[\d.]+, total;dur=[\d.]+$/,
    );

    const report = (await (await usage(service, account.key)).json()) as { credits_used: number; keys: unknown[] };
    assert.equal(report.credits_used, 1);
    assert.deepEqual(report.keys, [{ id: account.keyId, name: 'test key', credits: 1 }]);
    assert.deepEqual(reservations(service, account.id), [{ state: 'charged', error_code: null, pages: 1 }]);
  });

  it('should apply design settings from the front matter, with no field of their own', async () => {
    const markdown = '---\npaper: letter\nnumber_headings: true\nfooter: "{page} of {pages}"\n---\n\n# First\n\n\\newpage\n\n# Second\n';
    const response = await render(service, account.key, { markdown });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-service-pages'), '2');
    const pdf = new Uint8Array(await response.arrayBuffer());
    const { pageSizes, pdftotext } = await import('../../support/pdf-tools.js');
    assert.deepEqual(
      (await pageSizes(pdf)).map((size) => [size.width, size.height]),
      [
        [612, 792],
        [612, 792],
      ],
    );
    const text = await pdftotext(pdf);
    assert.match(text, /1\s+First[\s\S]*1 of 2[\s\S]*2\s+Second[\s\S]*2 of 2/);
  });

  it('should refuse a bad design value 422 render_failed naming it, and charge nothing for it', async () => {
    const own = await createAccount(service.store, { plan: 'starter' });
    const good = await render(service, own.key, { markdown: '---\ncolumns: 2\n---\n\nText.\n' });
    assert.equal(good.status, 200);
    await good.arrayBuffer();
    const refusals: Array<[string, RegExp]> = [
      ['columns: 3', /columns must be 1 or 2.*not 3/],
      ['accent: blue', /accent must be a colour .*not "blue"/],
      ['font_size: 40', /font_size must be a size in points from 8 to 14.*not 40/],
      ['margin: 110mm', /margin must be margins that leave at least 1 in .*not "110mm 110mm 110mm 110mm"/],
      ['header:\n  right: "{chapter}"', /header/],
    ];
    for (const [setting, message] of refusals) {
      const response = await render(service, own.key, { markdown: `---\n${setting}\n---\n\n# Hi\n` });
      assert.equal(response.status, 422, setting);
      const error = await errorBody(response);
      assert.equal(error.code, 'render_failed', setting);
      assert.match(String(error.error), message);
    }
    const report = (await (await usage(service, own.key)).json()) as { credits_used: number; keys: unknown[] };
    assert.equal(report.credits_used, 1, 'only the document that rendered is counted');
    assert.deepEqual(report.keys, [{ id: own.keyId, name: 'test key', credits: 1 }]);
    assert.deepEqual(
      reservations(service, own.id)
        .map((row) => row.state)
        .sort(),
      ['charged', ...refusals.map(() => 'returned')],
    );
  });

  it('should take raw Markdown as text/markdown, without a content type, or with any other type', async () => {
    for (const contentType of ['text/markdown; charset=utf-8', undefined, 'text/plain', 'application/octet-stream']) {
      const response = await fetch(`${service.url}/v1/render`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${account.key}`, ...(contentType && { 'Content-Type': contentType }) },
        body: Buffer.from(README),
      });
      assert.equal(response.status, 200, String(contentType));
      assert.equal(response.headers.get('content-type'), 'application/pdf');
      await response.arrayBuffer();
    }
  });

  it('should return JSON with the same digest as the streamed PDF', async () => {
    const streamed = await render(service, account.key, { markdown: README });
    const digest = streamed.headers.get('x-service-sha256');
    await streamed.arrayBuffer();
    const response = await render(service, account.key, { markdown: README, output: 'json' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('x-service-sha256'), digest);
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['bytes', 'pages', 'pdf', 'sha256', 'signed']);
    const pdf = Buffer.from(String(body.pdf), 'base64');
    assert.equal(body.sha256, digest);
    assert.equal(sha256(pdf), digest);
    assert.equal(body.bytes, pdf.byteLength);
    assert.equal(body.pages, 1);
    assert.equal(body.signed, false);
  });

  it('should enforce .pdf and cut the filename stem to 80 characters', async () => {
    const cases: [string, string][] = [
      ['Quarterly report.PDF', 'attachment; filename="Quarterly report.pdf"'],
      ['notes.txt', 'attachment; filename="notes.txt.pdf"'],
      [`${'a'.repeat(100)}.pdf`, `attachment; filename="${'a'.repeat(80)}.pdf"`],
      ['../../etc/passwd', 'attachment; filename=".._.._etc_passwd.pdf"'],
    ];
    for (const [filename, disposition] of cases) {
      const response = await render(service, account.key, { markdown: README, filename });
      assert.equal(response.headers.get('content-disposition'), disposition);
      await response.arrayBuffer();
    }
  });

  it('should add the RFC 8187 filename* form for a non-ASCII name', async () => {
    const response = await render(service, account.key, { markdown: README, filename: 'Überblick – 2025' });
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="Uberblick _ 2025.pdf"; filename*=UTF-8''%C3%9Cberblick%20%E2%80%93%202025.pdf`,
    );
    await response.arrayBuffer();
  });

  it('should cut both filename forms to an 80-character stem when the name has characters outside the BMP', async () => {
    // Each emoji is one character but two UTF-16 halves; ligatures transliterate to several letters.
    const requested = `${'😀'.repeat(50)}${'ﬃ'.repeat(50)}.pdf`;
    const response = await render(service, account.key, { markdown: README, filename: requested });
    await response.arrayBuffer();
    const disposition = response.headers.get('content-disposition')!;
    const ascii = /; filename="([^"]*)"/.exec(disposition)![1]!;
    const extended = decodeURIComponent(/; filename\*=UTF-8''(\S+)$/.exec(disposition)![1]!);
    assert.equal(ascii, `${'_'.repeat(50)}${'ffi'.repeat(10)}.pdf`);
    assert.equal(extended, `${'😀'.repeat(50)}${'ﬃ'.repeat(30)}.pdf`);
    assert.equal(Array.from(extended.slice(0, -4)).length, 80);
  });

  it('should render the same document to the same bytes whatever the features object spells out', async () => {
    const digests = new Set<string | null>();
    for (const features of [undefined, {}, { mermaid: true, theme: 'light' }]) {
      const response = await render(service, account.key, { markdown: README, ...(features && { features }) });
      digests.add(response.headers.get('x-service-sha256'));
      await response.arrayBuffer();
    }
    assert.equal(digests.size, 1);
  });

  it('should apply the features sent', async () => {
    const light = await render(service, account.key, { markdown: README });
    const dark = await render(service, account.key, { markdown: README, features: { theme: 'dark' } });
    assert.notEqual(light.headers.get('x-service-sha256'), dark.headers.get('x-service-sha256'));
    await Promise.all([light.arrayBuffer(), dark.arrayBuffer()]);
  });
});

describe('refusals after reservation', () => {
  let service: TestService;

  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  const long = 'A paragraph of text that fills the page.\n\n'.repeat(400);

  it('should answer too_many_pages with the plan limit and return the document with the pages reached', async () => {
    const account = await createAccount(service.store, { plan: 'starter', overrides: { pages_max: 2 } });
    const response = await render(service, account.key, { markdown: long });
    assert.equal(response.status, 422);
    const error = await errorBody(response);
    assert.equal(error.code, 'too_many_pages');
    assert.deepEqual(error.limit, { name: 'pages_max', value: 2, plan: 'starter' });
    const [row] = reservations(service, account.id);
    assert.equal(row?.state, 'returned');
    assert.equal(row?.error_code, 'too_many_pages');
    assert.equal(row?.pages, 3);
    const report = (await (await usage(service, account.key)).json()) as { credits_used: number };
    assert.equal(report.credits_used, 0);
  });

  it('should answer too_many_pages with plan null when the deployment ceiling is below the plan', async () => {
    const capped = await startService({ deployment: { maxPages: 2 } });
    try {
      const account = await createAccount(capped.store, { plan: 'pro' });
      const response = await render(capped, account.key, { markdown: long });
      assert.equal(response.status, 422);
      assert.deepEqual((await errorBody(response)).limit, { name: 'pages_max', value: 2, plan: null });
    } finally {
      await capped.close();
    }
  });

  it('should answer a remote resource in strict mode 422 resource_fetch_failed by position and return the document', async () => {
    const account = await createAccount(service.store);
    const response = await render(service, account.key, { markdown: '# Hi\n\n![logo](https://images.example.com/secret/logo.png)' });
    assert.equal(response.status, 422);
    const error = await errorBody(response);
    assert.equal(error.code, 'resource_fetch_failed');
    assert.equal(error.resource_id, '1');
    assert.equal(typeof error.reason, 'string');
    assert.doesNotMatch(JSON.stringify(error), /images\.example\.com|secret/);
    assert.deepEqual(reservations(service, account.id), [{ state: 'returned', error_code: 'resource_fetch_failed', pages: null }]);
  });

  it('should draw placeholders in lenient mode and report the failures in headers', async () => {
    const account = await createAccount(service.store);
    const images = Array.from({ length: 18 }, (_, i) => `![img ${i}](https://images.example.com/${i}.png)`).join('\n\n');
    const response = await render(service, account.key, { markdown: `# Hi\n\n${images}`, resources: 'lenient' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-service-resources-failed'), '18/18');
    assert.equal(response.headers.get('x-service-resources-failed-ids'), '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,+2');
    await response.arrayBuffer();
    const pages = Number(response.headers.get('x-service-pages'));
    assert.deepEqual(reservations(service, account.id), [{ state: 'charged', error_code: null, pages }]);
  });

  it('should answer 402 quota_exhausted once the period has no documents left, and count grants', async () => {
    const account = await createAccount(service.store, { overrides: { documents: 1 } });
    assert.equal((await render(service, account.key, '# One')).status, 200);
    const refused = await render(service, account.key, '# Two');
    assert.equal(refused.status, 402);
    assert.equal((await errorBody(refused)).code, 'quota_exhausted');
    await service.store.grantDocuments(account.id, 1);
    assert.equal((await render(service, account.key, '# Two')).status, 200);
    assert.equal((await render(service, account.key, '# Three')).status, 402);
    assert.deepEqual(
      reservations(service, account.id).map((row) => row.state),
      ['charged', 'charged'],
    );
  });
});
