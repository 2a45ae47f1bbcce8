/**
 * The sealer's own conduct around the credential: it is opened in a worker thread, so the
 * service's event loop keeps answering while key derivation runs, and what the worker refuses
 * comes back as the refusal it is.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../../src/clock.js';
import { CertificateSealer } from '../../../src/seal/certificate-sealer.js';
import { CredentialVault } from '../../../src/seal/stored/credential-vault.js';
import { ServiceError } from '../../../src/service-error.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { Fixtures, PASSWORD } from './support/openssl-fixtures.js';
import { includedDocuments } from '../../../src/limits/plans.js';

describe('the sealer', () => {
  let fx: Fixtures;
  let store: SqliteStore;
  let sealer: CertificateSealer;

  before(() => {
    fx = Fixtures.make();
    // Legacy encryption at 70,000 iterations: about a second of node-forge's key derivation.
    execFileSync(
      'openssl',
      [
        'pkcs12',
        '-export',
        '-legacy',
        '-iter',
        '70000',
        '-inkey',
        'ed25519.key',
        '-in',
        'ed25519.pem',
        '-certfile',
        'chain.pem',
        '-passout',
        `pass:${PASSWORD}`,
        '-out',
        'heavy.p12',
      ],
      { cwd: fx.dir },
    );
    store = SqliteStore.open(':memory:', systemClock, { included: includedDocuments });
    sealer = new CertificateSealer({
      store,
      vault: new CredentialVault(Buffer.alloc(32, 1)),
      clock: systemClock,
      settings: { maxIterations: 100_000, reasonsAsCodes: false },
      log: () => undefined,
    });
  });
  after(async () => {
    await store.close();
    fx.remove();
  });

  const request = (p12: string, password: string) => ({
    credential: { form: 'p12' as const, p12, password },
    reason: undefined,
    location: undefined,
    contact: undefined,
  });

  it('should keep the event loop turning while a credential is opened', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await sealer.open(request(fx.base64('heavy.p12'), PASSWORD), 'acct_test');
    } finally {
      clearInterval(timer);
    }
    // Opened on this thread, the derivation would have held every timer until it was done.
    assert.ok(ticks >= 5, `${ticks} ticks`);
  });

  it('should answer what the worker refuses as invalid_bundle with its reason, one request after another', async () => {
    const refusals = await Promise.allSettled([
      sealer.open(request(fx.base64('p256.p12'), 'wrong'), 'acct_test'),
      sealer.open(request(fx.base64('expired.p12'), PASSWORD), 'acct_test'),
      sealer.open(request(fx.base64('p256.p12'), PASSWORD), 'acct_test'),
    ]);
    const outcome = refusals.map((result) =>
      result.status === 'fulfilled'
        ? 'opened'
        : result.reason instanceof ServiceError
          ? `${result.reason.code}:${result.reason.details.reason}`
          : String(result.reason),
    );
    assert.deepEqual(outcome, ['invalid_bundle:wrong_password', 'invalid_bundle:certificate_expired', 'opened']);
  });
});
