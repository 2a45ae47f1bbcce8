/**
 * Seal credentials as users make them with openssl: every accepted form opens into the right key
 * and chain, and every refusal reason is given for the credential that deserves it.
 */
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BundleRefusal, type RefusalReason } from '../../../src/seal/bundle-refusal.js';
import { openCredential, type OpenOptions } from '../../../src/seal/credential/open-credential.js';
import type { InlineCredential } from '../../../src/seal/seal-request.js';
import { Fixtures, NON_ASCII_PASSWORD, PASSWORD, type LeafName } from './support/openssl-fixtures.js';

/** Certificates start at the moment openssl made them: judge them at the moment of each check. */
const defaults = (): OpenOptions => ({ now: Date.now(), maxIterations: 100_000 });

describe('seal credentials', () => {
  let fx: Fixtures;
  let tenMillion: Promise<string>;

  before(() => {
    fx = Fixtures.make();
    // OpenSSL needs seconds to make it: started now, used by the last test.
    tenMillion = fx.tenMillionIterations();
  });
  after(() => fx.remove());

  const open = (credential: InlineCredential, options: Partial<OpenOptions> = {}) => openCredential(credential, { ...defaults(), ...options });
  const p12 = (file: string, password = PASSWORD): InlineCredential => ({ form: 'p12', p12: fx.base64(file), password });
  const parts = (leaf: LeafName, change: Partial<Extract<InlineCredential, { form: 'parts' }>> = {}): InlineCredential => ({
    form: 'parts',
    key: fx.text(`${leaf}.key`),
    cert: fx.text(`${leaf}.pem`),
    chain: fx.text('chain.pem'),
    password: undefined,
    ...change,
  });

  function refused(credential: InlineCredential, reason: RefusalReason, options: Partial<OpenOptions> = {}): void {
    assert.throws(
      () => open(credential, options),
      (error: unknown) => {
        assert.ok(error instanceof BundleRefusal, `expected a refusal, got ${String(error)}`);
        assert.equal(error.reason, reason);
        return true;
      },
    );
  }

  function assertIdentity(credential: InlineCredential, leaf: string, algorithm: string): void {
    const identity = open(credential);
    assert.equal(identity.algorithm.name, algorithm);
    assert.deepEqual(
      identity.chain.map((certificate) => certificate.subject),
      [`CN=Quire ${leaf} signer`, 'CN=Quire Test Intermediate', 'CN=Quire Test Root'],
    );
    assert.equal(identity.key.type, 'private');
  }

  it('should open separate PEM parts for RSA, ECDSA P-256 and P-384 and Ed25519, chain from leaf to root', () => {
    assertIdentity(parts('rsa'), 'rsa', 'rsa');
    assertIdentity(parts('p256'), 'p256', 'ecdsa-p256');
    assertIdentity(parts('p384'), 'p384', 'ecdsa-p384');
    assertIdentity(parts('ed25519'), 'ed25519', 'ed25519');
  });

  it('should read keys as PKCS#8, PKCS#1 and SEC1, plain or encrypted, in PEM or Base64 DER', () => {
    assertIdentity(parts('rsa', { key: fx.text('rsa.pkcs1.pem') }), 'rsa', 'rsa');
    assertIdentity(parts('rsa', { key: fx.text('rsa.pkcs1-encrypted.pem'), password: PASSWORD }), 'rsa', 'rsa');
    assertIdentity(parts('p256', { key: fx.text('p256.sec1.pem') }), 'p256', 'ecdsa-p256');
    assertIdentity(parts('p256', { key: fx.base64('p256.sec1.der') }), 'p256', 'ecdsa-p256');
    assertIdentity(parts('p256', { key: fx.text('p256.encrypted-3des.pem'), password: PASSWORD }), 'p256', 'ecdsa-p256');
    assertIdentity(parts('p384', { key: fx.text('p384.encrypted.pem'), password: NON_ASCII_PASSWORD }), 'p384', 'ecdsa-p384');
    assertIdentity(parts('ed25519', { key: fx.base64('ed25519.der'), cert: fx.base64('ed25519.cert.der') }), 'ed25519', 'ed25519');
    assertIdentity(parts('ed25519', { key: fx.base64('ed25519.encrypted.der'), password: PASSWORD }), 'ed25519', 'ed25519');
  });

  it('should take the chain in any order, with the issuer in the cert field or the chain field', () => {
    const [intermediate, root] = [fx.text('int.pem'), fx.text('root.pem')];
    assertIdentity(parts('p256', { chain: root + intermediate }), 'p256', 'ecdsa-p256');
    assertIdentity(parts('p256', { cert: fx.text('p256.pem') + intermediate, chain: root }), 'p256', 'ecdsa-p256');
    // A certificate off the path is not part of the chain.
    assert.equal(open(parts('p256', { chain: fx.text('chain.pem') + fx.text('other.pem') })).chain.length, 3);
  });

  it('should open PKCS#12 bundles as OpenSSL 3 writes them by default (AES-256, PBKDF2-SHA256), for every key type', () => {
    assertIdentity(p12('rsa.p12'), 'rsa', 'rsa');
    assertIdentity(p12('p256.p12'), 'p256', 'ecdsa-p256');
    assertIdentity(p12('p384.p12'), 'p384', 'ecdsa-p384');
    assertIdentity(p12('ed25519.p12'), 'ed25519', 'ed25519');
  });

  it('should open legacy bundles (RC2, 3DES, SHA-1 MAC), bundles without MAC, and empty and non-ASCII passwords', () => {
    assertIdentity(p12('rsa.legacy.p12'), 'rsa', 'rsa');
    assertIdentity(p12('ed25519.legacy.p12'), 'ed25519', 'ed25519');
    assertIdentity(p12('p256.nomac.p12'), 'p256', 'ecdsa-p256');
    assertIdentity(p12('p384.legacy-nomac.p12'), 'p384', 'ecdsa-p384');
    assertIdentity(p12('p256.empty.p12', ''), 'p256', 'ecdsa-p256');
    assertIdentity(p12('rsa.legacy-empty.p12', ''), 'rsa', 'rsa');
    assertIdentity(p12('p384.non-ascii.p12', NON_ASCII_PASSWORD), 'p384', 'ecdsa-p384');
    assertIdentity(p12('ed25519.legacy-non-ascii.p12', NON_ASCII_PASSWORD), 'ed25519', 'ed25519');
  });

  it('should refuse a wrong password as wrong_password, bundle or encrypted key alike', () => {
    refused(p12('p256.p12', 'wrong'), 'wrong_password');
    refused(p12('rsa.legacy.p12', 'wrong'), 'wrong_password');
    refused(p12('p256.nomac.p12', 'wrong'), 'wrong_password');
    refused(p12('p384.legacy-nomac.p12', ''), 'wrong_password');
    refused(p12('p256.empty.p12', 'not empty'), 'wrong_password');
    refused(p12('p384.non-ascii.p12', 'Passwort ✓ 密码'), 'wrong_password');
    refused(parts('p384', { key: fx.text('p384.encrypted.pem'), password: 'wrong' }), 'wrong_password');
    refused(parts('p384', { key: fx.text('p384.encrypted.pem') }), 'wrong_password');
    refused(parts('rsa', { key: fx.text('rsa.pkcs1-encrypted.pem'), password: 'wrong' }), 'wrong_password');
  });

  it('should refuse as wrong_password a wrong password under which the padding happens to check out', () => {
    const pem = fx.text('rsa.pkcs1-encrypted.pem');
    // One wrong password in about 256 decrypts to valid padding; OpenSSL then fails the key as malformed.
    const unlucky = Array.from({ length: 4096 }, (_, i) => `wrong ${i}`).find((password) => {
      try {
        createPrivateKey({ key: pem, format: 'pem', passphrase: password });
        return false;
      } catch (error) {
        return (error as { code?: string }).code !== 'ERR_OSSL_BAD_DECRYPT';
      }
    });
    assert.ok(unlucky !== undefined, 'a password whose padding checks out');
    refused(parts('rsa', { key: pem, password: unlucky }), 'wrong_password');
  });

  it('should refuse a credential with no private key as no_private_key', () => {
    refused(p12('cert-only.p12'), 'no_private_key');
    refused(parts('p256', { key: fx.text('p256.pem') }), 'no_private_key');
    refused(parts('p256', { key: Buffer.from('not a key').toString('base64') }), 'no_private_key');
    refused({ form: 'p12', p12: Buffer.from('not a bundle').toString('base64'), password: '' }, 'no_private_key');
  });

  it('should refuse certificates that do not reach a self-signed root as cert_chain_incomplete', () => {
    refused(p12('key-only.p12'), 'cert_chain_incomplete');
    refused(p12('p256.no-chain.p12'), 'cert_chain_incomplete');
    refused(parts('p256', { chain: undefined }), 'cert_chain_incomplete');
    refused(parts('p256', { chain: fx.text('int.pem') }), 'cert_chain_incomplete');
    refused(parts('p256', { chain: fx.text('root.pem') }), 'cert_chain_incomplete');
  });

  it('should refuse a key that is not the certificate’s as key_cert_mismatch', () => {
    refused(parts('p256', { key: fx.text('other.key') }), 'key_cert_mismatch');
    refused(parts('p256', { key: fx.text('rsa.key') }), 'key_cert_mismatch');
  });

  it('should refuse an expired certificate as certificate_expired', () => {
    refused(p12('expired.p12'), 'certificate_expired');
    refused(parts('expired'), 'certificate_expired');
    // The intermediate's expiry counts as much as the leaf's: judged eleven years on.
    refused(parts('p256'), 'certificate_expired', { now: Date.now() + 11 * 365 * 86_400_000 });
  });

  it('should refuse a certificate whose validity has not begun as certificate_not_yet_valid', () => {
    refused(p12('future.p12'), 'certificate_not_yet_valid');
    refused(parts('future'), 'certificate_not_yet_valid');
  });

  it('should refuse RSA below 2048 bits, other curves and other encryption schemes as unsupported_algorithm', () => {
    refused(p12('rsa1024.p12'), 'unsupported_algorithm');
    refused(parts('rsa1024'), 'unsupported_algorithm');
    refused(parts('p256', { key: fx.text('p256.scrypt.pem'), password: PASSWORD }), 'unsupported_algorithm');
  });

  it('should refuse iteration counts above the configured cap before trying the password', () => {
    // OpenSSL writes 2,048 iterations; a cap of 1,000 refuses the bundle and the encrypted key.
    refused(p12('p256.p12'), 'iterations_exceeded', { maxIterations: 1_000 });
    refused(parts('p384', { key: fx.text('p384.encrypted.pem'), password: 'wrong' }), 'iterations_exceeded', { maxIterations: 1_000 });
    // Within the cap one by one, a legacy bundle's five derivations add up past four times it.
    refused(p12('rsa.legacy.p12'), 'iterations_exceeded', { maxIterations: 2_048 });
    assertIdentity(p12('p256.p12'), 'p256', 'ecdsa-p256');
  });

  it('should never put what was sent into a refusal', () => {
    for (const [credential, secret] of [
      [p12('p256.p12', 'hunter2-secret'), 'hunter2-secret'],
      [parts('p256', { key: fx.text('other.key') }), fx.text('other.key').split('\n')[1]!],
    ] as const) {
      try {
        open(credential);
        assert.fail('expected a refusal');
      } catch (error) {
        assert.ok(error instanceof BundleRefusal);
        assert.ok(!error.message.includes(secret) && !error.message.includes('Quire'), error.message);
      }
    }
  });

  it('should refuse a bundle made with -iter 10000000 as iterations_exceeded, whatever the password', async () => {
    const bundle = await tenMillion;
    const started = process.cpuUsage();
    // A wrong password still gets iterations_exceeded: the counts were read before any password work.
    refused({ form: 'p12', p12: bundle, password: 'wrong' }, 'iterations_exceeded');
    refused({ form: 'p12', p12: bundle, password: PASSWORD }, 'iterations_exceeded');
    const cpu = process.cpuUsage(started);
    console.log(`# two refusals of the 10,000,000-iteration bundle: ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms of CPU`);
  });
});
