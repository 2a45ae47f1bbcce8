/**
 * From what a credential holds to what a seal needs: the private key, its certificate, and the
 * chain from that certificate to a self-signed root — each certificate of it valid now. Checked
 * in the order a user would fix them: a key, certificates, a supported key type, the key's own
 * certificate, the chain, the dates.
 */
import { createPublicKey, type KeyObject, type X509Certificate } from 'node:crypto';
import { BundleRefusal } from '../bundle-refusal.js';
import { sealAlgorithm, type SealAlgorithm } from './seal-algorithm.js';

export interface SigningIdentity {
  key: KeyObject;
  /** The signing certificate first, then each issuer up to the self-signed root. */
  chain: X509Certificate[];
  algorithm: SealAlgorithm;
}

export interface CredentialContents {
  keys: KeyObject[];
  /** The signing certificate when the credential names it (separate parts); a PKCS#12 bundle's is found by its key. */
  leaf: X509Certificate | undefined;
  /** The other certificates, in any order. */
  certificates: X509Certificate[];
}

/** Chain building compares every pair: a bound on the certificates bounds the signature checks. */
const MAX_CERTIFICATES = 16;

export function signingIdentity(contents: CredentialContents, now: number): SigningIdentity {
  const { keys, leaf, certificates } = contents;
  if (keys.length === 0) throw new BundleRefusal('no_private_key');
  const all = leaf ? [leaf, ...certificates] : certificates;
  if (all.length === 0 || all.length > MAX_CERTIFICATES) throw new BundleRefusal('cert_chain_incomplete');

  const pair = matchingPair(keys, leaf ? [leaf] : certificates);
  if (!pair) {
    throw new BundleRefusal(keys.some((key) => sealAlgorithm(key)) ? 'key_cert_mismatch' : 'unsupported_algorithm');
  }
  const algorithm = sealAlgorithm(pair.key);
  if (!algorithm) throw new BundleRefusal('unsupported_algorithm');
  const chain = buildChain(
    pair.certificate,
    all.filter((candidate) => candidate !== pair.certificate),
  );
  checkValidity(chain, now);
  return { key: pair.key, chain, algorithm };
}

function matchingPair(keys: KeyObject[], candidates: X509Certificate[]): { key: KeyObject; certificate: X509Certificate } | undefined {
  const publicKeys = keys.map((key) => spki(createPublicKey(key)));
  for (const certificate of candidates) {
    const certified = spki(certificate.publicKey);
    const index = publicKeys.findIndex((publicKey) => publicKey.equals(certified));
    if (index >= 0) return { key: keys[index]!, certificate };
  }
  return undefined;
}

function spki(key: KeyObject): Buffer {
  return key.export({ type: 'spki', format: 'der' });
}

/** Leaf to root: each next certificate is the one whose key signed the current one. */
function buildChain(leaf: X509Certificate, others: X509Certificate[]): X509Certificate[] {
  const chain = [leaf];
  const pool = [...others];
  let current = leaf;
  while (!issuedBy(current, current)) {
    const index = pool.findIndex((candidate) => issuedBy(current, candidate));
    if (index < 0) throw new BundleRefusal('cert_chain_incomplete');
    current = pool.splice(index, 1)[0]!;
    chain.push(current);
  }
  return chain;
}

function issuedBy(certificate: X509Certificate, issuer: X509Certificate): boolean {
  return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
}

function checkValidity(chain: X509Certificate[], now: number): void {
  for (const certificate of chain) {
    if (Date.parse(certificate.validTo) < now) throw new BundleRefusal('certificate_expired');
    if (Date.parse(certificate.validFrom) > now) throw new BundleRefusal('certificate_not_yet_valid');
  }
}
