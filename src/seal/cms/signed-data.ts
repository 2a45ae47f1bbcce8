/**
 * The CMS detached SignedData of a PAdES signature (`ETSI.CAdES.detached`): signed attributes
 * content type, message digest and signingCertificateV2 — no signing time, which PAdES puts in
 * the signature dictionary's /M — the whole chain, and the signature made by Node's crypto over
 * the DER SET OF the attributes. pkijs lays out the structure; it signs nothing.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SigningIdentity } from '../credential/signing-identity.js';
import { signingCertificateV2 } from './signing-certificate-v2.js';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
};
/** Room for the SignedData's own structure and attributes beyond certificates, names and the signature. */
const STRUCTURE_BYTES = 1024;

/** The DER SignedData (in its ContentInfo) over `contentDigest`, the digest of the signed byte ranges. */
export function buildSignedData(identity: SigningIdentity, contentDigest: Buffer): Buffer {
  const { algorithm } = identity;
  const certificates = identity.chain.map((certificate) => pkijs.Certificate.fromBER(certificate.raw));
  const leaf = certificates[0]!;
  // SHA-2 identifiers are written without parameters (RFC 5754).
  const digestAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: algorithm.digestOid });

  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: derSorted([
      new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
      new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: contentDigest })] }),
      signingCertificateV2(identity.chain[0]!, leaf),
    ]),
  });
  // The signature covers the attributes as a SET (tag 0x31), not as the [0] they are stored under.
  const signedBytes = Buffer.from(signedAttrs.toSchema().toBER());
  signedBytes[0] = 0x31;

  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: leaf.issuer, serialNumber: leaf.serialNumber }),
    digestAlgorithm,
    signedAttrs,
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: algorithm.signatureOid,
      ...(algorithm.nullParameters && { algorithmParams: new asn1js.Null() }),
    }),
    signature: new asn1js.OctetString({ valueHex: algorithm.sign(signedBytes, identity.key) }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [digestAlgorithm],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates,
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER());
}

/** An upper bound on buildSignedData's size for this identity, to reserve in the PDF. */
export function signedDataCapacity(identity: SigningIdentity): number {
  const certificates = identity.chain.reduce((sum, certificate) => sum + certificate.raw.length, 0);
  // The leaf's issuer and serial appear twice more: in the signer's id and in signingCertificateV2.
  const leafReferences = 2 * identity.chain[0]!.raw.length;
  return certificates + leafReferences + identity.algorithm.maxSignatureBytes + STRUCTURE_BYTES;
}

/** DER orders a SET OF by the encodings of its elements. */
function derSorted(attributes: pkijs.Attribute[]): pkijs.Attribute[] {
  const encoded = attributes.map((attribute) => ({ attribute, der: Buffer.from(attribute.toSchema().toBER()) }));
  return encoded.sort((a, b) => Buffer.compare(a.der, b.der)).map(({ attribute }) => attribute);
}
