/**
 * Sealed renders through the real service: the seal applied after rendering and confirmed before
 * delivery, refusals before anything is reserved, the plan, Idempotency-Key and deployment rules
 * of SPEC "Seal object", and a seal that fails after the render returning its document.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { UploadDestination, Uploader } from '../../../src/net/uploader.js';
import type { Sealer } from '../../../src/seal/sealer.js';
import { Fixtures, PASSWORD } from './support/openssl-fixtures.js';
import { testSealer } from './support/test-sealer.js';
import { independentCheck, pdfsig } from './support/verifiers.js';
import { createAccount, errorBody, render, reservations, startService, type TestAccount, type TestService } from '../../support/service-harness.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Storage that keeps what it receives. */
class MemoryStorage implements Uploader {
  readonly received: Uint8Array[] = [];
  async checkDestination(url: string): Promise<UploadDestination> {
    return { url: new URL(url), address: '192.0.2.1' };
  }
  async put(_destination: UploadDestination, pdf: Uint8Array): Promise<{ status: number }> {
    this.received.push(pdf);
    return { status: 201 };
  }
}

let fx: Fixtures;
before(() => {
  fx = Fixtures.make();
});
after(() => fx.remove());

describe('sealed renders', () => {
  let service: TestService;
  let pro: TestAccount;
  const storage = new MemoryStorage();

  before(async () => {
    service = await startService({
      sealer: testSealer({ store: () => service.store, log: (event) => service.logs.push(event) }),
      uploader: storage,
    });
    pro = await createAccount(service.store, { plan: 'pro' });
  });
  after(() => service.close());

  const p12 = (file = 'p256.p12', password = PASSWORD) => ({ p12: fx.base64(file), password });

  it('should stream a sealed PDF with X-Service-Signature and the digest of the sealed bytes, and charge it', async () => {
    const account = await createAccount(service.store, { plan: 'starter' });
    const response = await render(service, account.key, { markdown: '# Sealed\n\nBy the account’s own certificate.', sign: p12() });
    assert.equal(response.status, 200);
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.headers.get('x-service-signature'), 'signed');
    assert.equal(response.headers.get('x-service-sha256'), sha256(pdf));
    const verdict = await pdfsig(pdf);
    assert.ok(verdict.valid && verdict.totalDocumentSigned, verdict.output);
    assert.deepEqual(
      reservations(service, account.id).map((row) => row.state),
      ['charged'],
    );
  });

  it('should answer JSON with signed: true, and an upload receipt with the digest taken after sealing', async () => {
    const json = await render(service, pro.key, {
      markdown: '# JSON',
      output: 'json',
      sign: { key: fx.text('ed25519.key'), cert: fx.text('ed25519.pem'), chain: fx.text('chain.pem') },
    });
    assert.equal(json.status, 200);
    const body = (await json.json()) as { pdf: string; sha256: string; signed: boolean; bytes: number };
    const pdf = Buffer.from(body.pdf, 'base64');
    assert.deepEqual([body.signed, body.sha256, body.bytes], [true, sha256(pdf), pdf.length]);
    assert.ok((await independentCheck(pdf)).valid);

    const uploaded = await render(service, pro.key, {
      markdown: '# Upload',
      output: 'upload',
      upload_url: 'https://storage.example.com/a.pdf',
      sign: p12('rsa.p12'),
    });
    assert.equal(uploaded.status, 200);
    assert.equal(uploaded.headers.get('x-service-signature'), 'signed');
    const receipt = (await uploaded.json()) as { sha256: string; bytes: number };
    const stored = storage.received.at(-1)!;
    assert.deepEqual([receipt.sha256, receipt.bytes], [sha256(stored), stored.length]);
    assert.ok((await pdfsig(stored)).valid);
  });

  it('should write reason, location and contact into the seal', async () => {
    const response = await render(service, pro.key, {
      markdown: '# Meta',
      sign: { ...p12(), reason: 'Approved', location: 'Zürich', contact: 'legal@example.com' },
    });
    assert.equal(response.status, 200);
    const pdf = Buffer.from(await response.arrayBuffer());
    assert.match(pdf.toString('latin1'), /\/Reason \(Approved\)/);
    assert.ok((await pdfsig(pdf)).valid);
  });

  it('should refuse an unusable credential 400 invalid_bundle with its reason, before reserving anything', async () => {
    const account = await createAccount(service.store, { plan: 'pro' });
    const cases = [
      [p12('p256.p12', 'not the password'), 'wrong_password'],
      [p12('cert-only.p12'), 'no_private_key'],
      [p12('key-only.p12'), 'cert_chain_incomplete'],
      [{ key: fx.text('other.key'), cert: fx.text('p256.pem'), chain: fx.text('chain.pem') }, 'key_cert_mismatch'],
      [p12('expired.p12'), 'certificate_expired'],
      [p12('future.p12'), 'certificate_not_yet_valid'],
      [p12('rsa1024.p12'), 'unsupported_algorithm'],
    ] as const;
    for (const [sign, reason] of cases) {
      const response = await render(service, account.key, { markdown: '# No', sign });
      assert.equal(response.status, 400, reason);
      const error = await errorBody(response);
      assert.deepEqual([error.code, error.reason], ['invalid_bundle', reason]);
      assert.ok(!JSON.stringify(error).includes('not the password'));
    }
    assert.deepEqual(reservations(service, account.id), []);
  });

  it('should answer a valid sealing request from a Free account 403 plan_required', async () => {
    const free = await createAccount(service.store, { plan: 'free' });
    const response = await render(service, free.key, { markdown: '# Free', sign: p12() });
    assert.equal(response.status, 403);
    assert.deepEqual([(await errorBody(response)).code, reservations(service, free.id)], ['plan_required', []]);
  });

  it('should answer a sealed request with an Idempotency-Key 503 signing_unavailable', async () => {
    const response = await render(service, pro.key, { markdown: '# Keyed', sign: p12() }, { 'Idempotency-Key': 'seal-retry-1' });
    assert.equal(response.status, 503);
    const error = await errorBody(response);
    assert.deepEqual([error.code, error.reason], ['signing_unavailable', 'idempotency_key']);
  });

  it('should refuse sign: true, two credential forms and an oversized key 400 invalid_request', async () => {
    for (const sign of [
      true,
      { ...p12(), key: fx.text('p256.key'), cert: fx.text('p256.pem') },
      { key: `-----BEGIN PRIVATE KEY-----\n${'A'.repeat(90_000)}\n-----END PRIVATE KEY-----\n`, cert: fx.text('p256.pem') },
    ]) {
      const response = await render(service, pro.key, { markdown: '# Bad', sign });
      assert.equal(response.status, 400);
      assert.equal((await errorBody(response)).code, 'invalid_request');
    }
  });
});

describe('sealed renders where things go wrong after the render', () => {
  let service: TestService;

  before(async () => {
    const real = testSealer({ store: () => service.store, log: (event) => service.logs.push(event) });
    // The real seal, handed a PDF cut short: what a seal failing after the render looks like.
    const failing: Sealer = {
      async open(request, accountId) {
        const opened = await real.open(request, accountId);
        return { apply: (pdf) => opened.apply(pdf.subarray(0, pdf.length - 100)) };
      },
    };
    service = await startService({ sealer: failing });
  });
  after(() => service.close());

  it('should answer 422 signing_failed with no PDF, and return the document to the period', async () => {
    const account = await createAccount(service.store, { plan: 'pro' });
    const response = await render(service, account.key, { markdown: '# Fails', sign: { p12: fx.base64('p256.p12'), password: PASSWORD } });
    assert.equal(response.status, 422);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('x-service-signature'), null);
    assert.equal((await errorBody(response)).code, 'signing_failed');
    assert.deepEqual(reservations(service, account.id), [{ state: 'returned', error_code: 'signing_failed', pages: null }]);
    assert.ok(service.logs.some((event) => event.event === 'seal_failed'));
  });
});

describe('sealed renders on a deployment without the resource-rendering backend', () => {
  let service: TestService;

  before(async () => {
    service = await startService({ sealer: testSealer({ store: () => service.store }), deployment: { resourceBackend: false } });
  });
  after(() => service.close());

  it('should seal without metadata, and answer seal metadata 503 signing_unavailable', async () => {
    const account = await createAccount(service.store, { plan: 'scale' });
    const sign = { p12: fx.base64('p384.p12'), password: PASSWORD };
    const plain = await render(service, account.key, { markdown: '# Plain', sign });
    assert.equal(plain.status, 200);
    assert.ok((await pdfsig(new Uint8Array(await plain.arrayBuffer()))).valid);
    for (const metadata of [{ reason: 'Approved' }, { location: 'Berlin' }, { contact: 'a@example.com' }]) {
      const response = await render(service, account.key, { markdown: '# Meta', sign: { ...sign, ...metadata } });
      assert.equal(response.status, 503);
      const error = await errorBody(response);
      assert.deepEqual([error.code, error.reason], ['signing_unavailable', 'metadata_unavailable']);
    }
    assert.deepEqual(
      reservations(service, account.id).map((row) => row.state),
      ['charged'],
    );
  });
});

describe('sealed renders in compatibility mode', () => {
  let service: TestService;

  before(async () => {
    service = await startService({ sealer: testSealer({ store: () => service.store, settings: { reasonsAsCodes: true } }) });
  });
  after(() => service.close());

  it('should answer wrong_password and key_cert_mismatch as the code, other reasons as invalid_bundle', async () => {
    const account = await createAccount(service.store, { plan: 'pro' });
    const cases = [
      [{ p12: fx.base64('p256.p12'), password: 'wrong' }, 'wrong_password', undefined],
      [{ key: fx.text('other.key'), cert: fx.text('p256.pem'), chain: fx.text('chain.pem') }, 'key_cert_mismatch', undefined],
      [{ p12: fx.base64('expired.p12'), password: PASSWORD }, 'invalid_bundle', 'certificate_expired'],
    ] as const;
    for (const [sign, code, reason] of cases) {
      const response = await render(service, account.key, { markdown: '# Compat', sign });
      assert.equal(response.status, 400);
      const error = await errorBody(response);
      assert.deepEqual([error.code, error.reason], [code, reason]);
    }
  });
});
