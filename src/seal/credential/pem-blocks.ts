/** Credential text as the request carries it: PEM (one or more blocks) or Base64 of one DER structure. */

export interface DerBlock {
  /** The PEM label (`CERTIFICATE`, `EC PRIVATE KEY`, …); undefined for Base64 DER. */
  label: string | undefined;
  der: Buffer;
  /** The block's PEM text, for keys whose encryption lives in PEM headers (`Proc-Type`). */
  pem: string | undefined;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

export function decodeBlocks(text: string): DerBlock[] {
  if (!text.includes('-----BEGIN ')) return [{ label: undefined, der: Buffer.from(text, 'base64'), pem: undefined }];
  return [...text.matchAll(BLOCK)].map(([pem, label, body]) => ({
    label,
    // Header lines (`Proc-Type: …`) are not Base64.
    der: Buffer.from(
      body!
        .split(/\r?\n/)
        .filter((line) => !line.includes(':'))
        .join(''),
      'base64',
    ),
    pem,
  }));
}
