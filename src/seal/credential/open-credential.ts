/**
 * A credential as sent (PKCS#12, or separate key, certificate and chain) opened into a signing
 * identity, within a budget of key-derivation work. Used for inline credentials on each request
 * and for stored ones, which keep the form they were added in.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { BundleRefusal } from '../bundle-refusal.js';
import type { InlineCredential } from '../seal-request.js';
import { certificate, readCertificates } from './certificate-reader.js';
import { KdfBudget } from './kdf-budget.js';
import { readPkcs12 } from './pkcs12-reader.js';
import { readPrivateKeys } from './private-key-reader.js';
import { signingIdentity, type CredentialContents, type SigningIdentity } from './signing-identity.js';

export interface OpenOptions {
  /** Validity is judged at this instant (milliseconds since the epoch). */
  now: number;
  /** Largest iteration count of any one key derivation. */
  maxIterations: number;
}

export function openCredential(credential: InlineCredential, options: OpenOptions): SigningIdentity {
  return signingIdentity(contents(credential, new KdfBudget(options.maxIterations)), options.now);
}

function contents(credential: InlineCredential, budget: KdfBudget): CredentialContents {
  if (credential.form === 'p12') {
    const bundle = readPkcs12(Buffer.from(credential.p12, 'base64'), credential.password, budget);
    return { keys: bundle.keys.map(pkcs8Key), leaf: undefined, certificates: bundle.certificates.map(certificate) };
  }
  const keys = readPrivateKeys(credential.key, credential.password, budget);
  const [leaf, ...rest] = readCertificates(credential.cert);
  const chain = credential.chain === undefined ? [] : readCertificates(credential.chain);
  return { keys, leaf, certificates: [...rest, ...chain] };
}

/** A key from a PKCS#12 bag that Node cannot load is of a type it does not know. */
function pkcs8Key(der: Buffer): KeyObject {
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    throw new BundleRefusal('unsupported_algorithm');
  }
}
