/**
 * The ESS `signingCertificateV2` attribute (RFC 5035) that PAdES requires: the SHA-256 of the
 * signing certificate and its issuer and serial number, binding the signature to that
 * certificate so no other certificate of the same key can be substituted.
 */
import { createHash, type X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export const SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';

export function signingCertificateV2(certificate: X509Certificate, parsed: pkijs.Certificate): pkijs.Attribute {
  const directoryName = new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [parsed.issuer.toSchema()] });
  const issuerSerial = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [directoryName] }), parsed.serialNumber] });
  // hashAlgorithm is left out: SHA-256 is its DER default.
  const certId = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: createHash('sha256').update(certificate.raw).digest() }), issuerSerial],
  });
  const value = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [certId] })] });
  return new pkijs.Attribute({ type: SIGNING_CERTIFICATE_V2, values: [value] });
}
