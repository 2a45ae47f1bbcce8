/** The real sealer as the service tests plug it in: the service's own store, a test master key, a clock of its own. */
import type { Clock } from '../../../../src/clock.js';
import type { Log } from '../../../../src/log.js';
import { CertificateSealer } from '../../../../src/seal/certificate-sealer.js';
import type { SealSettings } from '../../../../src/seal/seal-settings.js';
import { CredentialVault } from '../../../../src/seal/stored/credential-vault.js';
import type { Store } from '../../../../src/store/store.js';

/** 32 bytes as hex: what QUIRE_MASTER_KEY holds for the CLI in these tests. */
export const TEST_MASTER_KEY = 'a5'.repeat(32);

export interface TestSealerOptions {
  /** Read when asked: the test service's store exists only once the service has started. */
  store: () => Store;
  /** Certificates are judged by real time unless a test moves this. */
  clock?: Clock;
  settings?: Partial<SealSettings>;
  log?: Log;
}

export function testSealer(options: TestSealerOptions): CertificateSealer {
  return new CertificateSealer({
    store: { storedCertificate: (accountId, name) => options.store().storedCertificate(accountId, name) },
    vault: new CredentialVault(Buffer.from(TEST_MASTER_KEY, 'hex')),
    clock: options.clock ?? { now: () => Date.now() },
    settings: { maxIterations: 100_000, reasonsAsCodes: false, ...options.settings },
    log: options.log ?? (() => undefined),
  });
}
