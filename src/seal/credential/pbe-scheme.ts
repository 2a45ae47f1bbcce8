/**
 * Password-based encryption schemes as PKCS#12 and PKCS#8 name them: PBES2 with PBKDF2 (what
 * OpenSSL 3 writes) or the legacy PKCS#12 PBEs with SHA-1 (3DES, RC2). Read from the
 * AlgorithmIdentifier alone, so the iteration count is known before any password work; anything
 * else (scrypt, PBES1, RC4) is `unsupported_algorithm`.
 */
import { BundleRefusal } from '../bundle-refusal.js';
import { integer, isInteger, MalformedAsn1, objectId, octets, sequence, type Asn1 } from './asn1-reader.js';

export type Pbes2Cipher = 'aes-128-cbc' | 'aes-192-cbc' | 'aes-256-cbc' | 'des-ede3-cbc';

export type PbeScheme =
  | {
      kind: 'pbes2';
      iterations: bigint;
      salt: Buffer;
      prf: string;
      cipher: Pbes2Cipher;
      keyLength: number;
      iv: Buffer;
    }
  /** node-forge derives and decrypts these from the original parameters. */
  | { kind: 'pkcs12'; iterations: bigint; oid: string; params: Asn1 };

const PBES2 = '1.2.840.113549.1.5.13';
const PBKDF2 = '1.2.840.113549.1.5.12';
const PKCS12_PBES = new Set([
  '1.2.840.113549.1.12.1.3', // pbeWithSHAAnd3-KeyTripleDES-CBC
  '1.2.840.113549.1.12.1.6', // pbeWithSHAAnd40BitRC2-CBC
]);
const PRFS: Record<string, string> = {
  '1.2.840.113549.2.7': 'sha1',
  '1.2.840.113549.2.8': 'sha224',
  '1.2.840.113549.2.9': 'sha256',
  '1.2.840.113549.2.10': 'sha384',
  '1.2.840.113549.2.11': 'sha512',
};
const CIPHERS: Record<string, { cipher: Pbes2Cipher; keyLength: number }> = {
  '2.16.840.1.101.3.4.1.2': { cipher: 'aes-128-cbc', keyLength: 16 },
  '2.16.840.1.101.3.4.1.22': { cipher: 'aes-192-cbc', keyLength: 24 },
  '2.16.840.1.101.3.4.1.42': { cipher: 'aes-256-cbc', keyLength: 32 },
  '1.2.840.113549.3.7': { cipher: 'des-ede3-cbc', keyLength: 24 },
};

/** How many KDF runs one decryption under the scheme costs (the PKCS#12 PBEs derive key and IV apart). */
export function derivations(scheme: PbeScheme): number {
  return scheme.kind === 'pbes2' ? 1 : 2;
}

/** Reads an AlgorithmIdentifier; MalformedAsn1 when it is not one. */
export function readPbeScheme(algorithm: Asn1): PbeScheme {
  const [oidNode, params] = sequence(algorithm);
  const oid = objectId(oidNode);
  if (PKCS12_PBES.has(oid)) {
    const [salt, count] = sequence(params);
    octets(salt);
    return { kind: 'pkcs12', iterations: positive(integer(count)), oid, params: params! };
  }
  if (oid !== PBES2) throw new BundleRefusal('unsupported_algorithm');
  const [kdf, encryption] = sequence(params);
  const [kdfOid, kdfParams] = sequence(kdf);
  if (objectId(kdfOid) !== PBKDF2) throw new BundleRefusal('unsupported_algorithm');
  const [salt, count, ...rest] = sequence(kdfParams);
  // keyLength (optional) is implied by the cipher; the PRF defaults to HMAC-SHA1.
  const prfAlgorithm = isInteger(rest[0]) ? rest[1] : rest[0];
  const prf = prfAlgorithm ? PRFS[objectId(sequence(prfAlgorithm)[0])] : 'sha1';
  const [cipherOid, iv] = sequence(encryption);
  const cipher = CIPHERS[objectId(cipherOid)];
  if (!prf || !cipher) throw new BundleRefusal('unsupported_algorithm');
  return { kind: 'pbes2', iterations: positive(integer(count)), salt: octets(salt), prf, ...cipher, iv: octets(iv) };
}

function positive(iterations: bigint): bigint {
  if (iterations < 1n) throw new MalformedAsn1();
  return iterations;
}
