/** The deployment's sealer, as `quire serve` builds it: master key and settings from the environment. */
import type { Clock } from '../clock.js';
import type { Log } from '../log.js';
import type { StoreLocation } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { CertificateSealer } from './certificate-sealer.js';
import { sealSettingsFromEnv } from './seal-settings.js';
import { CredentialVault } from './stored/credential-vault.js';
import { masterKey } from './stored/master-key.js';

export function sealerFromEnv(env: NodeJS.ProcessEnv, deps: { store: Store; location: StoreLocation; clock: Clock; log: Log }): CertificateSealer {
  return new CertificateSealer({
    store: deps.store,
    clock: deps.clock,
    log: deps.log,
    vault: new CredentialVault(masterKey(env, deps.location)),
    settings: sealSettingsFromEnv(env),
  });
}
