/**
 * Before a sealed PDF leaves, it is read back as a verifier would: the signature field found
 * through the new trailer, catalog and form; a /ByteRange that covers the whole file but the
 * /Contents; the CMS parsed from /Contents, its message digest equal to the digest of those
 * bytes and its signature valid under the signing certificate's key. Only then is the answer
 * `X-Service-Signature: signed`.
 */
import { createHash } from 'node:crypto';
import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SigningIdentity } from './credential/signing-identity.js';
import { readDictObject, readPdfFile } from './pdf/pdf-file.js';
import { refOf, tokenOf } from './pdf/pdf-syntax.js';

const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';

export class SealNotConfirmed extends Error {}

export function confirmSeal(sealed: Buffer, identity: SigningIdentity): void {
  const file = readPdfFile(sealed);
  const catalog = readDictObject(file, refOf(file.trailer.get('/Root')).num);
  const fields = readDictObject(file, refOf(catalog.get('/AcroForm')).num).get('/Fields');
  if (fields?.kind !== 'array') throw new SealNotConfirmed('no form fields');
  const widget = readDictObject(file, refOf(fields.items.at(-1)).num);
  const signature = readDictObject(file, refOf(widget.get('/V')).num);
  const range = signature.get('/ByteRange');
  if (range?.kind !== 'array' || range.items.length !== 4) throw new SealNotConfirmed('no byte range');
  const [start, firstLength, restStart, restLength] = range.items.map((item) => Number(tokenOf(item)));
  if (start !== 0 || restStart! + restLength! !== sealed.length || sealed[firstLength!] !== 0x3c || sealed[restStart! - 1] !== 0x3e) {
    throw new SealNotConfirmed('the byte range does not cover the whole file');
  }

  const cms = Buffer.from(file.text.slice(firstLength! + 1, restStart! - 1), 'hex');
  const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(cms).content });
  const signer = signedData.signerInfos[0];
  if (signedData.signerInfos.length !== 1 || !signer?.signedAttrs) throw new SealNotConfirmed('not one signer with attributes');
  const { algorithm } = identity;
  const digest = createHash(algorithm.digest)
    .update(sealed.subarray(0, firstLength))
    .update(sealed.subarray(restStart, restStart! + restLength!))
    .digest();
  const attribute = signer.signedAttrs.attributes.find((candidate) => candidate.type === MESSAGE_DIGEST);
  const claimed = Buffer.from((attribute?.values[0] as asn1js.OctetString | undefined)?.valueBlock.valueHexView ?? []);
  if (signer.digestAlgorithm.algorithmId !== algorithm.digestOid || !claimed.equals(digest)) {
    throw new SealNotConfirmed('the message digest does not match the document');
  }
  const signedBytes = Buffer.from(signer.signedAttrs.encodedValue);
  const signatureValue = Buffer.from(signer.signature.valueBlock.valueHexView);
  if (!algorithm.verify(signedBytes, identity.chain[0]!.publicKey, signatureValue)) {
    throw new SealNotConfirmed('the signature does not verify');
  }
}
