/**
 * The private key of the separate-parts form, loaded by Node's own crypto: PKCS#8 (plain or
 * encrypted), PKCS#1 and SEC1, as PEM or Base64 DER. An encrypted PKCS#8 key is decrypted the way
 * a PKCS#12 key bag is, its iteration count charged to the budget first.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { BundleRefusal } from '../bundle-refusal.js';
import { MalformedAsn1, parseDer, sequence } from './asn1-reader.js';
import { chargeEncryptedKey, decryptPrivateKeyInfo, passwordForms } from './encrypted-private-key.js';
import type { KdfBudget } from './kdf-budget.js';
import { decodeBlocks, type DerBlock } from './pem-blocks.js';

const WRONG_PASSWORD_CODES = new Set(['ERR_OSSL_BAD_DECRYPT', 'ERR_OSSL_CRYPTO_INTERRUPTED_OR_CANCELLED', 'ERR_MISSING_PASSPHRASE']);
const TRADITIONALLY_ENCRYPTED = /^Proc-Type:\s*4,ENCRYPTED/m;
const KEY_LABELS = new Set(['PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']);

export function readPrivateKeys(text: string, password: string | undefined, budget: KdfBudget): KeyObject[] {
  const blocks = decodeBlocks(text).filter((block) => block.label === undefined || KEY_LABELS.has(block.label));
  if (blocks.length === 0) throw new BundleRefusal('no_private_key');
  return blocks.map((block) => readKey(block, password, budget));
}

function readKey(block: DerBlock, password: string | undefined, budget: KdfBudget): KeyObject {
  switch (block.label) {
    case 'ENCRYPTED PRIVATE KEY':
      return encryptedPkcs8(block.der, password, budget);
    case 'PRIVATE KEY':
      return loaded(() => createPrivateKey({ key: block.der, format: 'der', type: 'pkcs8' }));
    case 'RSA PRIVATE KEY':
    case 'EC PRIVATE KEY':
      // Node reads the PEM headers of a traditionally encrypted key (one MD5 round: nothing to budget).
      return loaded(
        () => createPrivateKey({ key: block.pem!, format: 'pem', ...(password !== undefined && { passphrase: password }) }),
        TRADITIONALLY_ENCRYPTED.test(block.pem!),
      );
    default:
      return bareDer(block.der, password, budget);
  }
}

/** Base64 DER says nothing of its type; an EncryptedPrivateKeyInfo starts with an AlgorithmIdentifier. */
function bareDer(der: Buffer, password: string | undefined, budget: KdfBudget): KeyObject {
  if (isEncryptedPkcs8(der)) return encryptedPkcs8(der, password, budget);
  for (const type of ['pkcs8', 'pkcs1', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      // try the next encoding
    }
  }
  throw new BundleRefusal('no_private_key');
}

function isEncryptedPkcs8(der: Buffer): boolean {
  try {
    sequence(sequence(parseDer(der))[0]);
    return true;
  } catch {
    return false;
  }
}

function encryptedPkcs8(der: Buffer, password: string | undefined, budget: KdfBudget): KeyObject {
  let plain: Buffer;
  try {
    const encrypted = parseDer(der);
    chargeEncryptedKey(encrypted, budget);
    if (password === undefined) throw new BundleRefusal('wrong_password');
    plain = decryptPrivateKeyInfo(encrypted, passwordForms(password), budget);
  } catch (error) {
    if (error instanceof MalformedAsn1) throw new BundleRefusal('no_private_key');
    throw error;
  }
  try {
    return createPrivateKey({ key: plain, format: 'der', type: 'pkcs8' });
  } catch {
    // Padding that happened to check out under a wrong password.
    throw new BundleRefusal('wrong_password');
  }
}

/**
 * The key, or the refusal its loading calls for. An encrypted key that does not load is the
 * password's fault whatever OpenSSL says: under a wrong password the padding checks out one time
 * in 256, and the key then fails as malformed.
 */
function loaded(load: () => KeyObject, encrypted = false): KeyObject {
  try {
    return load();
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new BundleRefusal(encrypted || (code !== undefined && WRONG_PASSWORD_CODES.has(code)) ? 'wrong_password' : 'no_private_key');
  }
}
