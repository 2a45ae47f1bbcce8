/**
 * EncryptedPrivateKeyInfo (PKCS#8), the form of an encrypted key file and of a PKCS#12 shrouded
 * key bag: its iteration count is charged when it is first seen, and only then is it decrypted.
 */
import { BundleRefusal } from '../bundle-refusal.js';
import { octets, parseDer, sequence, type Asn1 } from './asn1-reader.js';
import type { KdfBudget } from './kdf-budget.js';
import { pbeDecrypt, type PfxPassword } from './pbe-decrypt.js';
import { derivations, readPbeScheme } from './pbe-scheme.js';

export function chargeEncryptedKey(encrypted: Asn1, budget: KdfBudget): void {
  const scheme = readPbeScheme(sequence(encrypted)[0]!);
  budget.charge(scheme.iterations, derivations(scheme));
}

/**
 * The PrivateKeyInfo DER under the first password form that decrypts it. The first attempt was
 * paid for by chargeEncryptedKey; each further one is charged before it runs.
 */
export function decryptPrivateKeyInfo(encrypted: Asn1, passwords: PfxPassword[], budget: KdfBudget): Buffer {
  const [algorithm, data] = sequence(encrypted);
  const scheme = readPbeScheme(algorithm!);
  for (const [index, password] of passwords.entries()) {
    if (index > 0) budget.charge(scheme.iterations, derivations(scheme));
    const plain = pbeDecrypt(scheme, octets(data), password);
    if (plain && isSequence(plain)) return plain;
  }
  throw new BundleRefusal('wrong_password');
}

/** Under a wrong password the padding checks out one time in 256; the DER then almost never does. */
function isSequence(der: Buffer): boolean {
  try {
    sequence(parseDer(der));
    return true;
  } catch {
    return false;
  }
}

/** PKCS#12 and PKCS#8 alike: an empty password may mean the empty BMPString or none at all. */
export function passwordForms(password: string): PfxPassword[] {
  return password === '' ? ['', null] : [password];
}
