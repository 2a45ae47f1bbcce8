/** Every refusal made on the request as sent: the right error, and not a document reserved. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createAccount,
  errorBody,
  periodCount,
  render,
  reservations,
  startService,
  type TestAccount,
  type TestService,
} from '../../support/service-harness.js';

describe('render refusals before reservation', () => {
  let service: TestService;
  let account: TestAccount;

  before(async () => {
    service = await startService();
    account = await createAccount(service.store, { plan: 'starter' });
  });
  after(() => service.close());

  async function refused(
    body: unknown,
    expected: { status: number; code: string; reason?: string; message?: RegExp },
    headers: Record<string, string> = {},
    key = account.key,
  ): Promise<Record<string, unknown>> {
    const response = await render(service, key, body, headers);
    assert.equal(response.status, expected.status, `status for ${JSON.stringify(body).slice(0, 80)}`);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const error = await errorBody(response);
    assert.equal(error.code, expected.code);
    if (expected.reason) assert.equal(error.reason, expected.reason);
    if (expected.message) assert.match(String(error.error), expected.message);
    return error;
  }

  it('should name an unknown top-level field', async () => {
    await refused({ markdown: '# Hi', colour: 'red' }, { status: 400, code: 'invalid_request', reason: 'unknown_field', message: /"colour"/ });
  });

  it('should name an unknown feature, camel-case spellings included', async () => {
    await refused({ markdown: '# Hi', features: { smartTypography: false } }, { status: 400, code: 'invalid_request', message: /features\.smartTypography/ });
    await refused({ markdown: '# Hi', features: { sparkles: true } }, { status: 400, code: 'invalid_request', message: /features\.sparkles/ });
  });

  it('should refuse a non-boolean feature and a theme outside light and dark, naming the key', async () => {
    await refused({ markdown: '# Hi', features: { tasks: 'yes' } }, { status: 400, code: 'invalid_request', message: /features\.tasks/ });
    await refused({ markdown: '# Hi', features: { theme: 'sepia' } }, { status: 400, code: 'invalid_request', message: /features\.theme/ });
    await refused({ markdown: '# Hi', features: [] }, { status: 400, code: 'invalid_request', message: /features/ });
  });

  it('should require a string markdown field in a JSON body', async () => {
    await refused({ features: {} }, { status: 400, code: 'invalid_request', reason: 'missing_field', message: /markdown/ });
    await refused({ markdown: 42 }, { status: 400, code: 'invalid_request', message: /markdown/ });
    await refused('[1, 2]', { status: 400, code: 'invalid_request' }, { 'Content-Type': 'application/json' });
    await refused('{"markdown": "x"', { status: 400, code: 'invalid_request', reason: 'invalid_json' }, { 'Content-Type': 'application/json; charset=utf-8' });
  });

  it('should refuse an output outside pdf, json and upload, and a resources mode outside strict and lenient', async () => {
    await refused({ markdown: '# Hi', output: 'docx' }, { status: 400, code: 'invalid_request', message: /output/ });
    await refused({ markdown: '# Hi', resources: 'relaxed' }, { status: 400, code: 'invalid_request', message: /resources/ });
  });

  it('should refuse upload_url without upload output, and upload output without upload_url', async () => {
    await refused(
      { markdown: '# Hi', upload_url: 'https://storage.example.com/a.pdf' },
      { status: 400, code: 'invalid_request', reason: 'invalid_upload_url' },
    );
    await refused({ markdown: '# Hi', output: 'upload' }, { status: 400, code: 'invalid_request', reason: 'invalid_upload_url' });
  });

  it('should refuse an unacceptable upload_url without repeating it', async () => {
    for (const url of [
      'http://storage.example.com/secret-token',
      'not a url secret-token',
      'https://storage.example.com/a b?secret-token',
      'https://user:secret-token@storage.example.com/',
    ]) {
      const error = await refused(
        { markdown: '# Hi', output: 'upload', upload_url: url },
        { status: 400, code: 'invalid_request', reason: 'invalid_upload_url' },
      );
      assert.doesNotMatch(JSON.stringify(error), /secret-token/);
    }
  });

  it('should answer upload delivery 503 render_unavailable when the deployment has no uploader', async () => {
    await refused({ markdown: '# Hi', output: 'upload', upload_url: 'https://storage.example.com/a.pdf?sig=1' }, { status: 503, code: 'render_unavailable' });
  });

  it('should refuse a wrongly typed filename and a language over 63 characters or not BCP 47', async () => {
    await refused({ markdown: '# Hi', filename: 7 }, { status: 400, code: 'invalid_request', message: /filename/ });
    await refused({ markdown: '# Hi', language: `en-${'a'.repeat(61)}` }, { status: 400, code: 'invalid_request', message: /language/ });
    await refused({ markdown: '# Hi', language: 'not a tag' }, { status: 400, code: 'invalid_request', message: /language/ });
  });

  it('should refuse a malformed Idempotency-Key', async () => {
    for (const key of ['', 'k'.repeat(129), 'tab\there']) {
      await refused({ markdown: '# Hi' }, { status: 400, code: 'invalid_request', reason: 'invalid_idempotency_key' }, { 'Idempotency-Key': key });
    }
  });

  it('should answer empty_document for an empty markdown string and a zero-byte raw body', async () => {
    await refused({ markdown: '' }, { status: 400, code: 'empty_document' });
    await refused('', { status: 400, code: 'empty_document' }, { 'Content-Type': 'text/markdown' });
    await refused('', { status: 400, code: 'empty_document' });
  });

  it('should refuse sign: true and malformed or ambiguous seal requests', async () => {
    const invalid = { status: 400, code: 'invalid_request' };
    await refused({ markdown: '# Hi', sign: true }, invalid);
    await refused({ markdown: '# Hi', sign: 'yes' }, invalid);
    await refused({ markdown: '# Hi', sign: {} }, invalid);
    await refused({ markdown: '# Hi', sign: { certificate: 'main', p12: 'AAAA', password: '' } }, invalid);
    await refused({ markdown: '# Hi', sign: { p12: 'AAAA' } }, { ...invalid, message: /password/ });
    await refused({ markdown: '# Hi', sign: { key: 'AAAA' } }, invalid);
    await refused({ markdown: '# Hi', sign: { p12: 'not base64!', password: '' } }, invalid);
    await refused({ markdown: '# Hi', sign: { certificate: 'main', reason: 'x'.repeat(201) } }, invalid);
    await refused({ markdown: '# Hi', sign: { certificate: 'main', location: 'line\nbreak' } }, invalid);
    await refused({ markdown: '# Hi', sign: { certificate: 'main', pin: '1234' } }, { ...invalid, message: /sign\.pin/ });
    const oversized = Buffer.alloc(65_537).toString('base64');
    await refused({ markdown: '# Hi', sign: { p12: oversized, password: '' } }, { ...invalid, reason: 'credential_too_large' });
  });

  it('should answer a valid seal request 403 plan_required on Free', async () => {
    const free = await createAccount(service.store, { plan: 'free' });
    await refused({ markdown: '# Hi', sign: { certificate: 'main' } }, { status: 403, code: 'plan_required', reason: 'seal' }, {}, free.key);
    assert.equal(periodCount(service, free.id), 0);
  });

  it('should answer a sealed request with an Idempotency-Key 503 signing_unavailable', async () => {
    await refused(
      { markdown: '# Hi', sign: { certificate: 'main' } },
      { status: 503, code: 'signing_unavailable', reason: 'idempotency_key' },
      { 'Idempotency-Key': 'seal-1' },
    );
  });

  it('should answer a sealed request 503 signing_unavailable while the deployment has no sealer', async () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
    await refused({ markdown: '# Hi', sign: { key: pem, cert: 'AAAA' } }, { status: 503, code: 'signing_unavailable', reason: 'not_configured' });
  });

  it('should refuse Markdown over the plan budget, not counting embedded Base64 payloads', async () => {
    const small = await createAccount(service.store, { plan: 'free', overrides: { markdown_kb: 1 } });
    const error = await refused({ markdown: 'x'.repeat(1025) }, { status: 413, code: 'payload_too_large', reason: 'markdown_limit' }, {}, small.key);
    assert.deepEqual(error.limit, { name: 'markdown_kb', value: 1, plan: 'free' });
    assert.equal(periodCount(service, small.id), 0);
  });

  it('should refuse embedded resources over the plan budget', async () => {
    const small = await createAccount(service.store, { plan: 'pro', overrides: { resources_mb: 0.001 } });
    const payload = Buffer.alloc(2000, 7).toString('base64');
    const error = await refused(
      { markdown: `![x](data:image/png;base64,${payload})` },
      { status: 413, code: 'payload_too_large', reason: 'resource_limit' },
      {},
      small.key,
    );
    assert.deepEqual(error.limit, { name: 'resources_mb', value: 0.001, plan: 'pro' });
  });

  it('should refuse more than 500 embedded resources with 422 too_many_resources', async () => {
    const image = '![dot](data:image/gif;base64,R0lGODlhAQABAAAAACw=)\n';
    const error = await refused({ markdown: image.repeat(501) }, { status: 422, code: 'too_many_resources' });
    assert.deepEqual(error.limit, { name: 'embedded_resources', value: 500, plan: 'starter' });
  });

  it('should have reserved nothing for any of these refusals', () => {
    assert.equal(periodCount(service, account.id), 0);
    assert.deepEqual(reservations(service, account.id), []);
  });
});
