/**
 * Stored credentials at rest: the credential as it was added (bundle and password, or key,
 * certificates and password) encrypted with AES-256-GCM under the deployment's master key. The
 * account and the certificate's name are authenticated with it, so a record copied to another
 * account or name does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { InlineCredential } from '../seal-request.js';

/** The record is not one this master key sealed for this account and name. */
export class VaultError extends Error {}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class CredentialVault {
  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes');
  }

  /** version (1 byte) ‖ IV (12) ‖ tag (16) ‖ ciphertext */
  seal(credential: InlineCredential, accountId: string, name: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, iv).setAAD(associatedData(accountId, name));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(credential), 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), iv, cipher.getAuthTag(), ciphertext]);
  }

  open(sealed: Buffer, accountId: string, name: string): InlineCredential {
    if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) throw new VaultError('unknown record format');
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.masterKey, iv).setAAD(associatedData(accountId, name)).setAuthTag(tag);
      const plain = Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as InlineCredential;
    } catch {
      throw new VaultError('the record does not open with this key');
    }
  }
}

function associatedData(accountId: string, name: string): Buffer {
  return Buffer.from(JSON.stringify(['quire stored certificate', accountId, name]), 'utf8');
}
