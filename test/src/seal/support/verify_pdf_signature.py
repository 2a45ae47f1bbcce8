#!/usr/bin/python3
"""An independent check of a PDF seal, written against the standards rather than Quire's code.

Reads the last signature's /ByteRange and /Contents with regular expressions (not Quire's PDF
reader), parses the CMS with asn1crypto and verifies it with cryptography: the byte range covers
the whole file but the contents, the message digest matches those bytes, signingCertificateV2
names the signer's certificate, the signature over the DER SET OF signed attributes verifies
with the signer's key (RSA PKCS#1 v1.5, ECDSA or Ed25519), and each certificate of the chain is
signed by the next. Prints one JSON object; exits 0 either way (the caller reads it).

Needs Debian's python3-cryptography and python3-asn1crypto.
"""
import hashlib
import json
import re
import sys

from asn1crypto import cms, tsp
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.serialization import load_der_public_key

CONTENT_TYPE = '1.2.840.113549.1.9.3'
MESSAGE_DIGEST = '1.2.840.113549.1.9.4'
SIGNING_TIME = '1.2.840.113549.1.9.5'
SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47'
HASHES = {'sha256': hashes.SHA256, 'sha384': hashes.SHA384, 'sha512': hashes.SHA512}


def verify_with(public_key_der, signature, data, digest_name):
    key = load_der_public_key(public_key_der)
    if isinstance(key, ed25519.Ed25519PublicKey):
        key.verify(signature, data)
    elif isinstance(key, rsa.RSAPublicKey):
        key.verify(signature, data, padding.PKCS1v15(), HASHES[digest_name]())
    elif isinstance(key, ec.EllipticCurvePublicKey):
        key.verify(signature, data, ec.ECDSA(HASHES[digest_name]()))
    else:
        raise ValueError('unsupported key type')


def check(pdf):
    result = {'valid': False}
    ranges = re.findall(rb'/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]', pdf)
    if not ranges:
        return {**result, 'error': 'no /ByteRange'}
    a, b, c, d = (int(x) for x in ranges[-1])
    result['total'] = a == 0 and c + d == len(pdf)
    contents = pdf[b:c]
    if not (contents.startswith(b'<') and contents.endswith(b'>')):
        return {**result, 'error': 'the byte range gap is not the /Contents string'}
    der = bytes.fromhex(contents[1:-1].decode('ascii'))
    signed_data = cms.ContentInfo.load(der)['content']
    signer = signed_data['signer_infos'][0]
    digest_name = signer['digest_algorithm']['algorithm'].native
    result['digest'] = digest_name
    result['signature_algorithm'] = signer['signature_algorithm']['algorithm'].native
    certificates = [choice.chosen for choice in signed_data['certificates']]
    sid = signer['sid'].chosen
    leaf = next(cert for cert in certificates
                if cert.issuer == sid['issuer'] and cert.serial_number == sid['serial_number'].native)
    result['signer'] = leaf.subject.human_friendly
    result['chain'] = len(certificates)

    attributes = {attr['type'].dotted: attr['values'][0] for attr in signer['signed_attrs']}
    signed = pdf[a:a + b] + pdf[c:c + d]
    result['digest_matches'] = attributes[MESSAGE_DIGEST].native == hashlib.new(digest_name, signed).digest()
    result['content_type_data'] = attributes[CONTENT_TYPE].native == 'data'
    result['signing_time_attribute'] = SIGNING_TIME in attributes
    v2 = attributes.get(SIGNING_CERTIFICATE_V2)
    cert_id = tsp.SigningCertificateV2.load(v2.dump())['certs'][0] if v2 is not None else None
    result['signing_certificate_v2'] = cert_id is not None and (
        cert_id['hash_algorithm']['algorithm'].native == 'sha256'
        and cert_id['cert_hash'].native == hashlib.sha256(leaf.dump()).digest()
        and cert_id['issuer_serial']['serial_number'].native == leaf.serial_number)

    signed_attrs = signer['signed_attrs'].dump()
    signed_attrs = b'\x31' + signed_attrs[1:]  # signed as a SET, stored as [0]
    try:
        verify_with(leaf.public_key.dump(), signer['signature'].native, signed_attrs, digest_name)
        result['signature_verifies'] = True
    except InvalidSignature:
        result['signature_verifies'] = False

    result['chain_verifies'] = chain_verifies(leaf, certificates)
    result['valid'] = all(result[key] for key in (
        'total', 'digest_matches', 'content_type_data', 'signing_certificate_v2', 'signature_verifies', 'chain_verifies'))
    return result


def chain_verifies(leaf, certificates):
    """Leaf to a self-signed root, each certificate's signature checked with its issuer's key."""
    current, seen = leaf, 0
    while seen <= len(certificates):
        issuer = next((cert for cert in certificates if cert.subject == current.issuer), None)
        if issuer is None:
            return False
        algorithm = current['signature_algorithm']
        digest = algorithm.hash_algo if algorithm.signature_algo != 'ed25519' else None
        try:
            verify_with(issuer.public_key.dump(), current.signature, current['tbs_certificate'].dump(), digest)
        except InvalidSignature:
            return False
        if issuer.subject == issuer.issuer:
            return True
        current, seen = issuer, seen + 1
    return False


if __name__ == '__main__':
    with open(sys.argv[1], 'rb') as file:
        try:
            print(json.dumps(check(file.read())))
        except Exception as error:  # malformed input is a verdict, not a crash
            print(json.dumps({'valid': False, 'error': repr(error)}))
