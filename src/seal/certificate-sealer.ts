/**
 * The sealer: the account's own credential — sent with the request, or stored under a name and
 * decrypted from the store — opened and checked in a worker thread before anything is reserved;
 * then, after the render, the PAdES signature written as an incremental update, read back and
 * confirmed. Credentials live in memory for the one request; refusals carry fixed sentences; a
 * failed seal logs only what went wrong with the PDF or the signature, never the credential.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Log } from '../log.js';
import { signingFailed, signingUnavailable, unknownSigningIdentity } from '../service-error.js';
import type { Store } from '../store/store.js';
import { BundleRefusal, refusalError } from './bundle-refusal.js';
import { buildSignedData, signedDataCapacity } from './cms/signed-data.js';
import { CredentialThreads } from './credential/credential-threads.js';
import type { SigningIdentity } from './credential/signing-identity.js';
import { appendSignatureField, insertSignature, signedSpans } from './pdf/signature-update.js';
import { confirmSeal } from './seal-confirmation.js';
import type { InlineCredential, SealRequest } from './seal-request.js';
import type { SealSettings } from './seal-settings.js';
import type { Seal, Sealer } from './sealer.js';
import { type CredentialVault, VaultError } from './stored/credential-vault.js';

export interface CertificateSealerOptions {
  /** Only ever asked for the requesting account's own certificate. */
  store: Pick<Store, 'storedCertificate'>;
  vault: CredentialVault;
  clock: Clock;
  settings: SealSettings;
  log: Log;
}

export class CertificateSealer implements Sealer {
  private readonly threads = new CredentialThreads();

  constructor(private readonly options: CertificateSealerOptions) {}

  async open(request: SealRequest, accountId: string): Promise<Seal> {
    const { clock, settings } = this.options;
    const stored = request.credential.form === 'stored';
    const credential = await this.credential(request, accountId);
    let identity: SigningIdentity;
    try {
      identity = await this.threads.open(credential, { now: clock.now(), maxIterations: settings.maxIterations }, accountId);
    } catch (error) {
      if (error instanceof BundleRefusal) throw refusalError(error, { reasonsAsCodes: settings.reasonsAsCodes, stored });
      throw error;
    }
    return { apply: async (pdf) => this.apply(pdf, identity, request) };
  }

  private async credential(request: SealRequest, accountId: string): Promise<InlineCredential> {
    const { credential } = request;
    if (credential.form !== 'stored') return credential;
    // Looked up by the requesting account only: another account's certificate of that name is not found.
    const record = await this.options.store.storedCertificate(accountId, credential.certificate);
    if (!record) throw unknownSigningIdentity();
    try {
      return this.options.vault.open(record.sealed, accountId, record.name);
    } catch (error) {
      if (!(error instanceof VaultError)) throw error;
      this.options.log({ event: 'stored_certificate_unreadable', account: accountId });
      throw signingUnavailable('stored_certificate_unreadable', "The stored certificate cannot be read with this deployment's master key.");
    }
  }

  private apply(pdf: Uint8Array, identity: SigningIdentity, request: SealRequest): Uint8Array {
    try {
      const prepared = appendSignatureField(
        pdf,
        { signedAt: this.options.clock.now(), reason: request.reason, location: request.location, contact: request.contact },
        signedDataCapacity(identity),
      );
      const digest = createHash(identity.algorithm.digest);
      for (const span of signedSpans(prepared)) digest.update(span);
      const sealed = insertSignature(prepared, buildSignedData(identity, digest.digest()));
      confirmSeal(sealed, identity);
      return sealed;
    } catch (error) {
      this.options.log({ event: 'seal_failed', error: error instanceof Error ? error.message : 'unknown' });
      throw signingFailed();
    }
  }
}
