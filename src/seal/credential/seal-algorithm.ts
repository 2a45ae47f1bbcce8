/**
 * The key types a seal may use and how each signs: RSA (PKCS#1 v1.5) of 2048 to 8192 bits and
 * ECDSA P-256 / P-384 with the SHA-2 of matching strength, Ed25519 with SHA-512 as the CMS
 * message digest (RFC 8419). Everything else is `unsupported_algorithm`. Node's crypto signs.
 */
import { sign, verify, type KeyObject } from 'node:crypto';

export interface SealAlgorithm {
  name: 'rsa' | 'ecdsa-p256' | 'ecdsa-p384' | 'ed25519';
  digest: 'sha256' | 'sha384' | 'sha512';
  digestOid: string;
  signatureOid: string;
  /** RSA's AlgorithmIdentifier carries an explicit NULL; ECDSA's and Ed25519's carry nothing. */
  nullParameters: boolean;
  /** The largest signature, in bytes, for sizing the PDF's placeholder. */
  maxSignatureBytes: number;
  sign(data: Buffer, key: KeyObject): Buffer;
  verify(data: Buffer, publicKey: KeyObject, signature: Buffer): boolean;
}

const DIGEST_OIDS = {
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
} as const;

const MIN_RSA_BITS = 2048;
/** Larger keys sign for seconds on the service's event loop. */
const MAX_RSA_BITS = 8192;

export function sealAlgorithm(key: KeyObject): SealAlgorithm | undefined {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa': {
      const bits = details.modulusLength ?? 0;
      if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) return undefined;
      return {
        name: 'rsa',
        ...digest('sha256'),
        signatureOid: '1.2.840.113549.1.1.11', // sha256WithRSAEncryption
        nullParameters: true,
        maxSignatureBytes: Math.ceil(bits / 8),
        sign: (data, signer) => sign('sha256', data, signer),
        verify: (data, publicKey, signature) => verify('sha256', data, publicKey, signature),
      };
    }
    case 'ec':
      if (details.namedCurve === 'prime256v1') return ecdsa('ecdsa-p256', 'sha256', '1.2.840.10045.4.3.2', 32);
      if (details.namedCurve === 'secp384r1') return ecdsa('ecdsa-p384', 'sha384', '1.2.840.10045.4.3.3', 48);
      return undefined;
    case 'ed25519':
      return {
        name: 'ed25519',
        ...digest('sha512'),
        signatureOid: '1.3.101.112',
        nullParameters: false,
        maxSignatureBytes: 64,
        sign: (data, signer) => sign(null, data, signer),
        verify: (data, publicKey, signature) => verify(null, data, publicKey, signature),
      };
    default:
      return undefined;
  }
}

function ecdsa(name: 'ecdsa-p256' | 'ecdsa-p384', hash: 'sha256' | 'sha384', signatureOid: string, fieldBytes: number): SealAlgorithm {
  return {
    name,
    ...digest(hash),
    signatureOid,
    nullParameters: false,
    // SEQUENCE of two INTEGERs, each possibly a byte longer for its sign.
    maxSignatureBytes: 2 * (fieldBytes + 3) + 3,
    sign: (data, signer) => sign(hash, data, { key: signer, dsaEncoding: 'der' }),
    verify: (data, publicKey, signature) => verify(hash, data, { key: publicKey, dsaEncoding: 'der' }, signature),
  };
}

function digest(name: keyof typeof DIGEST_OIDS) {
  return { digest: name, digestOid: DIGEST_OIDS[name] };
}
