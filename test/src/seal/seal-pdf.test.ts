/**
 * Sealed PDFs judged by verifiers that are not Quire: poppler's pdfsig for RSA and ECDSA, a
 * Python checker (asn1crypto + cryptography) for every key type including Ed25519, qpdf for the
 * file's syntax and the signature dictionary, poppler for the pages.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { render } from '#engine/index.js';
import { systemClock, type Clock } from '../../../src/clock.js';
import { CertificateSealer } from '../../../src/seal/certificate-sealer.js';
import type { SealRequest } from '../../../src/seal/seal-request.js';
import { CredentialVault } from '../../../src/seal/stored/credential-vault.js';
import { ServiceError } from '../../../src/service-error.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { fixture } from '../../support/fixtures.js';
import { pdfFile, pdftotext, qpdfCheck } from '../../support/pdf-tools.js';
import { Fixtures, PASSWORD } from './support/openssl-fixtures.js';
import { independentCheck, pdfsig } from './support/verifiers.js';
import { includedDocuments } from '../../../src/limits/plans.js';

const run = promisify(execFile);

describe('sealed PDFs', () => {
  let fx: Fixtures;
  let store: SqliteStore;
  let rendered: Uint8Array;
  /** A minute after openssl made the certificates, on a whole second: the seals' signing time. */
  let signedAt: number;
  const logs: Record<string, unknown>[] = [];

  before(async () => {
    fx = Fixtures.make();
    signedAt = Math.floor(Date.now() / 1000) * 1000 + 60_000;
    store = SqliteStore.open(':memory:', systemClock, { included: includedDocuments });
    rendered = (await render(fixture('kitchen-sink.md'), {})).pdf;
  });
  after(async () => {
    await store.close();
    fx.remove();
  });

  function sealer(clock: Clock = { now: () => signedAt }): CertificateSealer {
    const vault = new CredentialVault(Buffer.alloc(32, 7));
    return new CertificateSealer({ store, vault, clock, settings: { maxIterations: 100_000, reasonsAsCodes: false }, log: (event) => logs.push(event) });
  }

  const credentials = {
    rsa: (): SealRequest['credential'] => ({
      form: 'parts',
      key: fx.text('rsa.key'),
      cert: fx.text('rsa.pem'),
      chain: fx.text('chain.pem'),
      password: undefined,
    }),
    p256: (): SealRequest['credential'] => ({ form: 'p12', p12: fx.base64('p256.p12'), password: PASSWORD }),
    p384: (): SealRequest['credential'] => ({ form: 'p12', p12: fx.base64('p384.legacy-nomac.p12'), password: PASSWORD }),
    ed25519: (): SealRequest['credential'] => ({ form: 'p12', p12: fx.base64('ed25519.legacy.p12'), password: PASSWORD }),
  };

  async function seal(pdf: Uint8Array, credential: SealRequest['credential'], metadata: Partial<SealRequest> = {}): Promise<Buffer> {
    const opened = await sealer().open({ credential, reason: undefined, location: undefined, contact: undefined, ...metadata }, 'acct_test');
    return Buffer.from(await opened.apply(pdf));
  }

  /** Every object of the file as qpdf reads it (JSON v2: text strings decoded as `u:…`). */
  async function qpdfObjects(bytes: Uint8Array): Promise<Record<string, { value?: Record<string, unknown> }>> {
    const { stdout } = await run('qpdf', ['--json=2', '--json-key=qpdf', pdfFile(bytes, 'objects'), '-'], { maxBuffer: 64 << 20, encoding: 'utf8' });
    return (JSON.parse(stdout) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>] }).qpdf[1];
  }

  async function signatureDictionary(bytes: Uint8Array): Promise<Record<string, unknown>> {
    const objects = await qpdfObjects(bytes);
    const found = Object.values(objects).find((object) => object.value?.['/Type'] === '/Sig');
    assert.ok(found?.value, 'a signature dictionary');
    return found.value;
  }

  it('should seal with RSA, ECDSA P-256 and P-384 so that pdfsig finds the whole document signed and valid', async () => {
    for (const [name, digest] of [
      ['rsa', 'sha256'],
      ['p256', 'sha256'],
      ['p384', 'sha384'],
    ] as const) {
      const sealed = await seal(rendered, credentials[name]());
      const verdict = await pdfsig(sealed);
      assert.ok(verdict.valid, `${name}: ${verdict.output}`);
      assert.ok(verdict.totalDocumentSigned, `${name}: ${verdict.output}`);
      assert.match(verdict.output, /Signature Type: ETSI\.CAdES\.detached/);
      assert.match(verdict.output, new RegExp(`Signer Certificate Common Name: Quire ${name} signer`));
      const check = await independentCheck(sealed);
      assert.ok(check.valid, `${name}: ${JSON.stringify(check)}`);
      assert.equal(check.digest, digest);
    }
  });

  it('should seal with Ed25519, verified by the independent checker (pdfsig cannot check Ed25519)', async () => {
    const sealed = await seal(rendered, credentials.ed25519());
    const check = await independentCheck(sealed);
    assert.ok(check.valid, JSON.stringify(check));
    assert.deepEqual([check.digest, check.signature_algorithm, check.chain], ['sha512', 'ed25519', 3]);
    assert.ok((await pdfsig(sealed)).totalDocumentSigned);
  });

  it('should carry signingCertificateV2 and the full chain, and the signing time only in /M', async () => {
    const sealed = await seal(rendered, credentials.p256());
    const check = await independentCheck(sealed);
    assert.deepEqual([check.signing_certificate_v2, check.chain_verifies, check.chain, check.signing_time_attribute], [true, true, 3, false]);
    const dictionary = await signatureDictionary(sealed);
    assert.equal(dictionary['/SubFilter'], '/ETSI.CAdES.detached');
    assert.equal(dictionary['/Filter'], '/Adobe.PPKLite');
    assert.equal(dictionary['/M'], `u:D:${new Date(signedAt).toISOString().slice(0, 19).replace(/[-T:]/g, '')}Z`);
  });

  it('should be reported invalid by pdfsig and the checker once a signed byte changes', async () => {
    for (const name of ['p256', 'ed25519'] as const) {
      const sealed = await seal(rendered, credentials[name]());
      // A byte of the rendered document (its header comment), then a byte of the update itself.
      for (const offset of [10, sealed.lastIndexOf('/SigFlags 3') + 10]) {
        const tampered = Buffer.from(sealed);
        tampered[offset] = tampered[offset] === 0x34 ? 0x35 : 0x34;
        const check = await independentCheck(tampered);
        assert.equal(check.valid, false, `${name} at ${offset}`);
        assert.equal(check.digest_matches, false);
        if (name === 'p256') assert.equal((await pdfsig(tampered)).valid, false);
      }
    }
  });

  it('should append one incremental update: the rendered bytes unchanged, an invisible field, a valid file', async () => {
    const sealed = await seal(rendered, credentials.rsa());
    assert.ok(sealed.subarray(0, rendered.length).equals(Buffer.from(rendered)));
    assert.match(await qpdfCheck(sealed), /No syntax or stream encoding errors/);
    assert.equal(await pdftotext(sealed), await pdftotext(rendered));
    const objects = Object.values(await qpdfObjects(sealed)).map((object) => object.value ?? {});
    const widget = objects.find((object) => object['/Subtype'] === '/Widget')!;
    assert.deepEqual([widget['/FT'], widget['/Rect'], widget['/F']], ['/Sig', [0, 0, 0, 0], 132]);
    const form = objects.find((object) => object['/SigFlags'] !== undefined)!;
    assert.equal(form['/SigFlags'], 3);
    const update = sealed.subarray(rendered.length).toString('latin1');
    assert.match(update, /\/Prev \d+/);
    assert.equal(update.match(/%%EOF/g)?.length, 1);
  });

  it('should draw nothing: the sealed page looks exactly like the rendered one', async () => {
    const sealed = await seal(rendered, credentials.p384());
    const pixels = async (bytes: Uint8Array) => {
      const file = pdfFile(bytes, 'page');
      await run('pdftoppm', ['-r', '80', '-f', '1', '-l', '1', '-singlefile', file, file]);
      return readFileSync(`${file}.ppm`);
    };
    const [unsealedPage, sealedPage] = [await pixels(rendered), await pixels(sealed)];
    assert.ok(unsealedPage.length > 400_000, `${unsealedPage.length} bytes of pixels`);
    assert.ok(sealedPage.equals(unsealedPage));
  });

  it('should write reason, location and contact into the signature dictionary, non-ASCII text in UTF-16', async () => {
    const sealed = await seal(rendered, credentials.p256(), {
      reason: 'Approved (final) — ✓',
      location: 'C:\\Office (2nd floor)',
      contact: 'legal@example.com',
    });
    const dictionary = await signatureDictionary(sealed);
    assert.equal(dictionary['/Reason'], 'u:Approved (final) — ✓');
    assert.equal(dictionary['/Location'], 'u:C:\\Office (2nd floor)');
    assert.equal(dictionary['/ContactInfo'], 'u:legal@example.com');
    assert.ok((await pdfsig(sealed)).valid);
  });

  it('should answer signing_failed for bytes it cannot seal, logging nothing of the credential', async () => {
    const opened = await sealer().open({ credential: credentials.p256(), reason: undefined, location: undefined, contact: undefined }, 'acct_test');
    for (const broken of [rendered.subarray(0, rendered.length - 40), Buffer.from('not a pdf')]) {
      await assert.rejects(opened.apply(broken), (error: unknown) => error instanceof ServiceError && error.code === 'signing_failed' && error.status === 422);
    }
    const failures = logs.filter((event) => event.event === 'seal_failed');
    assert.equal(failures.length, 2);
    assert.doesNotMatch(JSON.stringify(failures), new RegExp(`${PASSWORD}|PRIVATE|BEGIN`));
  });

  it('should seal a 1 MB PDF with every key type, each valid', async () => {
    const big = (await render(fixture('german.md').repeat(110), {})).pdf;
    assert.ok(big.length > 1_000_000, `${big.length} bytes`);
    const timings: string[] = [];
    for (const name of ['rsa', 'p256', 'p384', 'ed25519'] as const) {
      const opened = await sealer().open({ credential: credentials[name](), reason: 'Timing', location: undefined, contact: undefined }, 'acct_test');
      const started = performance.now();
      const sealed = await opened.apply(big);
      timings.push(`${name} ${(performance.now() - started).toFixed(1)} ms`);
      assert.ok((await independentCheck(sealed)).valid, name);
    }
    console.log(`# sealing a ${(big.length / 1e6).toFixed(2)} MB PDF: ${timings.join(', ')}`);
  });
});
