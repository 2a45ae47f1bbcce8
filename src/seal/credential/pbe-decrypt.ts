/**
 * Decrypting under a password-based scheme. PBES2 runs on Node's own crypto (PBKDF2 over the
 * password's UTF-8 bytes, as OpenSSL does); the legacy PKCS#12 PBEs, which Node cannot do
 * (PKCS#12 key derivation, RC2), run on node-forge, which turns the password into a BMPString.
 */
import { createDecipheriv, pbkdf2Sync } from 'node:crypto';
import forge from 'node-forge';
import type { Asn1 } from './asn1-reader.js';
import type { PbeScheme } from './pbe-scheme.js';

/**
 * `null` is PKCS#12's absent password: producers disagree on whether an empty password is the
 * empty BMPString (two zero bytes) or nothing at all, so an empty one is tried both ways.
 */
export type PfxPassword = string | null;

type ForgeCipher = { update(input: forge.util.ByteBuffer): void; finish(): boolean; output: forge.util.ByteBuffer };
type GetCipher = (oid: string, params: Asn1, password: PfxPassword) => ForgeCipher;

/** The plaintext, or undefined when the padding is wrong — the usual sign of a wrong password. */
export function pbeDecrypt(scheme: PbeScheme, ciphertext: Buffer, password: PfxPassword): Buffer | undefined {
  if (scheme.kind === 'pbes2') {
    const key = pbkdf2Sync(Buffer.from(password ?? '', 'utf8'), scheme.salt, Number(scheme.iterations), scheme.keyLength, scheme.prf);
    try {
      const decipher = createDecipheriv(scheme.cipher, key, scheme.iv);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    } catch {
      return undefined;
    }
  }
  const getCipher = (forge.pki as unknown as { pbe: { getCipher: GetCipher } }).pbe.getCipher;
  const cipher = getCipher(scheme.oid, scheme.params, password);
  cipher.update(forge.util.createBuffer(ciphertext.toString('binary')));
  if (!cipher.finish()) return undefined;
  return Buffer.from(cipher.output.getBytes(), 'binary');
}
