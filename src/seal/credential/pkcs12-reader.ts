/**
 * Opens a PKCS#12 (PFX) bundle: its private keys (as PKCS#8 DER, for Node to load — node-forge
 * only understands RSA keys) and its certificates (as DER). Walked here rather than by
 * node-forge's `pkcs12FromAsn1`, which derives every key before anyone could look at the
 * iteration counts: every count visible in the structure is charged to the budget before the
 * first derivation, and the bags inside an encrypted container before they are decrypted.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import forge from 'node-forge';
import { BundleRefusal } from '../bundle-refusal.js';
import { explicit, integer, MalformedAsn1, objectId, octets, parseDer, sequence, toDer, type Asn1 } from './asn1-reader.js';
import { chargeEncryptedKey, decryptPrivateKeyInfo, passwordForms } from './encrypted-private-key.js';
import type { KdfBudget } from './kdf-budget.js';
import { pbeDecrypt, type PfxPassword } from './pbe-decrypt.js';
import { derivations, readPbeScheme, type PbeScheme } from './pbe-scheme.js';

export interface Pkcs12Contents {
  /** PrivateKeyInfo (PKCS#8) DER. */
  keys: Buffer[];
  certificates: Buffer[];
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  safeContentsBag: '1.2.840.113549.1.12.10.1.6',
  x509Certificate: '1.2.840.113549.1.9.22.1',
};
const MAC_DIGESTS: Record<string, { node: string; forge: () => forge.md.MessageDigest; bytes: number }> = {
  '1.3.14.3.2.26': { node: 'sha1', forge: () => forge.md.sha1.create(), bytes: 20 },
  '2.16.840.1.101.3.4.2.1': { node: 'sha256', forge: () => forge.md.sha256.create(), bytes: 32 },
  '2.16.840.1.101.3.4.2.2': { node: 'sha384', forge: () => forge.md.sha384.create(), bytes: 48 },
  '2.16.840.1.101.3.4.2.3': { node: 'sha512', forge: () => forge.md.sha512.create(), bytes: 64 },
};
/** Safe contents nested in safe contents: more than this is not a bundle anyone made. */
const MAX_NESTING = 4;

interface Mac {
  digest: (typeof MAC_DIGESTS)[string];
  value: Buffer;
  salt: Buffer;
  iterations: bigint;
}

type Bag = { type: string; value: Asn1 };
type Container = { kind: 'plain'; bags: Bag[] } | { kind: 'encrypted'; scheme: PbeScheme; ciphertext: Buffer };

export function readPkcs12(der: Buffer, password: string, budget: KdfBudget): Pkcs12Contents {
  try {
    return open(der, password, budget);
  } catch (error) {
    if (error instanceof MalformedAsn1) throw new BundleRefusal('no_private_key');
    throw error;
  }
}

function open(der: Buffer, password: string, budget: KdfBudget): Pkcs12Contents {
  const [version, authSafe, macData] = sequence(parseDer(der));
  if (integer(version) !== 3n) throw new MalformedAsn1();
  const [contentType, content] = sequence(authSafe);
  // Public-key integrity mode (the authenticated safe signed, not MACed) is not supported.
  if (objectId(contentType) !== OID.data) throw new BundleRefusal('unsupported_algorithm');
  const authenticated = octets(explicit(content, 0));
  const mac = macData ? readMac(macData) : undefined;
  const containers = sequence(parseDer(authenticated)).map(readContainer);

  // Every count in sight is charged before any password work.
  if (mac) budget.charge(mac.iterations);
  for (const container of containers) {
    if (container.kind === 'encrypted') budget.charge(container.scheme.iterations, derivations(container.scheme));
    else chargeShrouded(container.bags, budget);
  }

  const candidates = passwordForms(password);
  const passwords = mac ? [verifyMac(mac, authenticated, candidates, budget)] : candidates;
  const bags: Bag[] = [];
  for (const container of containers) {
    if (container.kind === 'plain') {
      bags.push(...container.bags);
      continue;
    }
    const inner = decryptContainer(container, passwords, budget);
    chargeShrouded(inner, budget);
    bags.push(...inner);
  }
  return {
    keys: bags.flatMap((bag) => privateKey(bag, passwords, budget)),
    certificates: bags.flatMap(certificate),
  };
}

function readMac(macData: Asn1): Mac {
  const [digestInfo, salt, iterations] = sequence(macData);
  const [algorithm, value] = sequence(digestInfo);
  // PBMAC1 (RFC 9579) and unusual digests are not supported.
  const digest = MAC_DIGESTS[objectId(sequence(algorithm)[0])];
  if (!digest) throw new BundleRefusal('unsupported_algorithm');
  return { digest, value: octets(value), salt: octets(salt), iterations: iterations ? integer(iterations) : 1n };
}

/** The password form whose MAC matches (see PfxPassword), or `wrong_password`. */
function verifyMac(mac: Mac, authenticated: Buffer, candidates: PfxPassword[], budget: KdfBudget): PfxPassword {
  if (mac.iterations < 1n) throw new MalformedAsn1();
  for (const [index, candidate] of candidates.entries()) {
    if (index > 0) budget.charge(mac.iterations);
    const salt = forge.util.createBuffer(mac.salt.toString('binary'));
    const key = forge.pkcs12.generateKey(candidate, salt, 3, Number(mac.iterations), mac.digest.bytes, mac.digest.forge());
    const computed = createHmac(mac.digest.node, Buffer.from(key.getBytes(), 'binary')).update(authenticated).digest();
    if (computed.length === mac.value.length && timingSafeEqual(computed, mac.value)) return candidate;
  }
  throw new BundleRefusal('wrong_password');
}

function readContainer(contentInfo: Asn1): Container {
  const [type, content] = sequence(contentInfo);
  const oid = objectId(type);
  if (oid === OID.data) return { kind: 'plain', bags: readSafeContents(octets(explicit(content, 0)), 0) };
  // Public-key privacy mode (enveloped data) is not supported.
  if (oid !== OID.encryptedData) throw new BundleRefusal('unsupported_algorithm');
  const [, encryptedContentInfo] = sequence(explicit(content, 0));
  const [, algorithm, encrypted] = sequence(encryptedContentInfo);
  return { kind: 'encrypted', scheme: readPbeScheme(algorithm!), ciphertext: octets(encrypted, 0) };
}

function readSafeContents(der: Buffer, depth: number): Bag[] {
  if (depth > MAX_NESTING) throw new MalformedAsn1();
  return sequence(parseDer(der)).flatMap((safeBag) => {
    const [type, value] = sequence(safeBag);
    const bag = { type: objectId(type), value: explicit(value, 0) };
    return bag.type === OID.safeContentsBag ? readSafeContents(toDer(bag.value), depth + 1) : [bag];
  });
}

function chargeShrouded(bags: Bag[], budget: KdfBudget): void {
  for (const bag of bags) if (bag.type === OID.shroudedKeyBag) chargeEncryptedKey(bag.value, budget);
}

/** The container's bags under the first password form that decrypts it to safe contents. */
function decryptContainer(container: Extract<Container, { kind: 'encrypted' }>, passwords: PfxPassword[], budget: KdfBudget): Bag[] {
  for (const [index, password] of passwords.entries()) {
    if (index > 0) budget.charge(container.scheme.iterations, derivations(container.scheme));
    const plain = pbeDecrypt(container.scheme, container.ciphertext, password);
    if (!plain) continue;
    try {
      return readSafeContents(plain, 0);
    } catch (error) {
      if (!(error instanceof MalformedAsn1)) throw error;
    }
  }
  throw new BundleRefusal('wrong_password');
}

function privateKey(bag: Bag, passwords: PfxPassword[], budget: KdfBudget): Buffer[] {
  if (bag.type === OID.keyBag) return [toDer(bag.value)];
  return bag.type === OID.shroudedKeyBag ? [decryptPrivateKeyInfo(bag.value, passwords, budget)] : [];
}

function certificate(bag: Bag): Buffer[] {
  if (bag.type !== OID.certBag) return [];
  const [type, value] = sequence(bag.value);
  return objectId(type) === OID.x509Certificate ? [octets(explicit(value, 0))] : [];
}
