/**
 * The seams where upload delivery (issue 5) and seals (issue 6) plug in, exercised with small
 * stand-ins: what the render flow does around them — charging, returning, headers — is real.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { UploadDestination, Uploader } from '../../../src/net/uploader.js';
import type { Sealer } from '../../../src/seal/sealer.js';
import { invalidRequest, uploadFailed } from '../../../src/service-error.js';
import { createAccount, errorBody, render, reservations, startService, type TestService } from '../../support/service-harness.js';

/** Storage that keeps what it receives, refusing URLs that ask it to. */
class MemoryStorage implements Uploader {
  readonly received = new Map<string, Uint8Array>();
  async checkDestination(url: string): Promise<UploadDestination> {
    if (url.includes('private')) throw invalidRequest('invalid_upload_url', '"upload_url" must be on a public host.');
    return { url: new URL(url), address: '192.0.2.1' };
  }
  async put(destination: UploadDestination, pdf: Uint8Array): Promise<{ status: number }> {
    const url = destination.url.href;
    if (url.includes('refuse')) throw uploadFailed(403);
    this.received.set(url, pdf);
    return { status: 201 };
  }
}

/** Appends a marker after the PDF, standing in for an incremental-update signature. */
const markingSealer: Sealer = {
  async open() {
    return { apply: async (pdf) => Buffer.concat([pdf, Buffer.from('\n%sealed\n')]) };
  },
};

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('upload delivery seam', () => {
  let service: TestService;
  const storage = new MemoryStorage();

  before(async () => {
    service = await startService({ uploader: storage });
  });
  after(() => service.close());

  it('should answer a receipt only after storage accepted the PDF, and charge it', async () => {
    const account = await createAccount(service.store);
    const url = 'https://storage.example.com/bucket/a.pdf?X-Signature=abc';
    const response = await render(service, account.key, { markdown: '# Upload', output: 'upload', upload_url: url });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-disposition'), null);
    const receipt = (await response.json()) as Record<string, unknown>;
    const stored = storage.received.get(url)!;
    assert.deepEqual(receipt, { uploaded: true, pages: 1, bytes: stored.byteLength, sha256: sha256(stored), status: 201 });
    assert.equal(response.headers.get('x-service-sha256'), sha256(stored));
    assert.doesNotMatch(JSON.stringify(receipt), /storage\.example\.com/);
    assert.deepEqual(
      reservations(service, account.id).map((row) => row.state),
      ['charged'],
    );
  });

  it('should refuse a destination before reserving, and return the document when storage refuses', async () => {
    const account = await createAccount(service.store);
    const refusedEarly = await render(service, account.key, { markdown: '# Up', output: 'upload', upload_url: 'https://private.example/a.pdf' });
    assert.equal(refusedEarly.status, 400);
    assert.deepEqual(reservations(service, account.id), []);

    const failed = await render(service, account.key, { markdown: '# Up', output: 'upload', upload_url: 'https://storage.example.com/refuse' });
    assert.equal(failed.status, 424);
    const error = await errorBody(failed);
    assert.deepEqual([error.code, error.status], ['upload_failed', 403]);
    assert.deepEqual(reservations(service, account.id), [{ state: 'returned', error_code: 'upload_failed', pages: null }]);
  });
});

describe('seal seam', () => {
  let service: TestService;

  before(async () => {
    service = await startService({ sealer: markingSealer });
  });
  after(() => service.close());

  it('should deliver the sealed bytes with X-Service-Signature and their digest', async () => {
    const account = await createAccount(service.store, { plan: 'pro' });
    const response = await render(service, account.key, { markdown: '# Sealed', output: 'json', sign: { certificate: 'company' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-service-signature'), 'signed');
    const body = (await response.json()) as { pdf: string; sha256: string; signed: boolean };
    const pdf = Buffer.from(body.pdf, 'base64');
    assert.equal(body.signed, true);
    assert.match(pdf.subarray(-10).toString(), /%sealed/);
    assert.equal(body.sha256, sha256(pdf));
    assert.equal(response.headers.get('x-service-sha256'), sha256(pdf));
  });

  it('should still refuse seals on Free and sealed requests with an Idempotency-Key', async () => {
    const free = await createAccount(service.store, { plan: 'free' });
    assert.equal((await render(service, free.key, { markdown: '# S', sign: { certificate: 'c' } })).status, 403);
    const pro = await createAccount(service.store, { plan: 'pro' });
    const keyed = await render(service, pro.key, { markdown: '# S', sign: { certificate: 'c' } }, { 'Idempotency-Key': 'k' });
    assert.equal(keyed.status, 503);
    assert.equal((await errorBody(keyed)).code, 'signing_unavailable');
  });
});
