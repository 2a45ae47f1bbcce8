/** Certificates as the request carries them (PEM, several allowed, or Base64 DER), read by Node. */
import { X509Certificate } from 'node:crypto';
import { BundleRefusal } from '../bundle-refusal.js';
import { decodeBlocks } from './pem-blocks.js';

export function readCertificates(text: string): X509Certificate[] {
  const blocks = decodeBlocks(text).filter((block) => block.label === undefined || block.label === 'CERTIFICATE');
  if (blocks.length === 0) throw new BundleRefusal('cert_chain_incomplete');
  return blocks.map((block) => certificate(block.der));
}

export function certificate(der: Buffer): X509Certificate {
  try {
    return new X509Certificate(der);
  } catch {
    throw new BundleRefusal('cert_chain_incomplete');
  }
}
