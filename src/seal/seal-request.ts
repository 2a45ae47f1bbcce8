/**
 * The `sign` field of a render request (docs/api.md "Seals"), checked for shape only: exactly one
 * credential form, sizes, metadata. Whether the credential is usable is the sealer's business.
 * Inline credentials live only in the request object: never stored, logged or fingerprinted.
 */
import { z } from 'zod';
import { refuseInto, validated } from '../render/schema-refusal.js';
import { invalidRequest } from '../service-error.js';

export type SealCredential =
  | { form: 'stored'; certificate: string }
  | { form: 'p12'; p12: string; password: string }
  | { form: 'parts'; key: string; cert: string; chain: string | undefined; password: string | undefined };

/** A credential sent with the request, used for it alone. */
export type InlineCredential = Exclude<SealCredential, { form: 'stored' }>;

export interface SealRequest {
  credential: SealCredential;
  /** Seal metadata written into the PDF's signature dictionary. */
  reason: string | undefined;
  location: string | undefined;
  contact: string | undefined;
}

const MAX_METADATA = 200;
const MAX_DECODED_BYTES = 65_536;
const NO_CONTROL = /^[^\u0000-\u001f\u007f-\u009f]*$/;
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const text = (name: string) => z.string({ error: `"sign.${name}" must be a string.` });
const metadata = (name: string, description: string) => {
  const error = `"sign.${name}" must be at most ${MAX_METADATA} characters without control characters.`;
  return text(name).max(MAX_METADATA, { error }).regex(NO_CONTROL, { error }).optional().describe(description);
};
const pemOrBase64 = (name: string, description: string) =>
  text(name).optional().describe(`${description} PEM text or standard Base64 of DER, at most ${MAX_DECODED_BYTES} decoded bytes.`);

/** The seal object's fields; which combinations make a credential form is checked by `toSealRequest`. */
const SEAL_FIELDS = z
  .strictObject({
    certificate: text('certificate')
      .min(1, { error: '"sign.certificate" must name a stored certificate.' })
      .max(MAX_METADATA, { error: '"sign.certificate" must name a stored certificate.' })
      .regex(NO_CONTROL, { error: '"sign.certificate" must name a stored certificate.' })
      .optional()
      .describe('Stored certificate form: the name of a certificate stored in the account.'),
    p12: text('p12')
      .regex(STANDARD_BASE64, { error: '"sign.p12" must be standard Base64.' })
      .optional()
      .describe(`PKCS#12 form: standard Base64 of a PKCS#12/PFX bundle, at most ${MAX_DECODED_BYTES} decoded bytes.`),
    password: text('password').optional().describe('With p12 (required; an empty string for an unprotected bundle), or with an encrypted key.'),
    key: pemOrBase64('key', 'Separate-parts form: the private key (PKCS#8, PKCS#1 or SEC1).'),
    cert: pemOrBase64('cert', 'Separate-parts form: the signing certificate.'),
    chain: pemOrBase64('chain', "Separate-parts form, optional: the issuers, the leaf's issuer first."),
    reason: metadata('reason', 'Why the document is sealed, written into the seal.'),
    location: metadata('location', 'Where it is sealed.'),
    contact: metadata('contact', 'How to reach the sealer.'),
  })
  .describe("A seal with the account's own certificate: exactly one credential form — certificate, p12 with password, or key and cert.");

/** docs/api.md "Seals": `false` for none, or one credential form; its output is the SealRequest. */
export const SEAL_SCHEMA = z.union([z.literal(false), SEAL_FIELDS.transform((fields, ctx) => refuseInto(ctx, () => toSealRequest(fields)) ?? z.NEVER)], {
  error: (issue) =>
    issue.input === true ? '"sign": true is not a seal request; send a seal object, or false for none.' : '"sign" must be an object or false.',
});

/** Undefined for an unsealed render (`sign` omitted or false). */
export function parseSealRequest(sign: unknown): SealRequest | undefined {
  if (sign === undefined) return undefined;
  return validated(z.strictObject({ sign: SEAL_SCHEMA }), { sign }, { sign: 'invalid_seal' }).sign || undefined;
}

function toSealRequest(fields: z.output<typeof SEAL_FIELDS>): SealRequest {
  const { reason, location, contact } = fields;
  return { credential: credential(fields), reason, location, contact };
}

function credential(fields: z.output<typeof SEAL_FIELDS>): SealCredential {
  const has = (name: keyof typeof fields) => fields[name] !== undefined;
  const forms = [has('certificate'), has('p12'), has('key') || has('cert') || has('chain')].filter(Boolean).length;
  if (forms !== 1) throw invalid('"sign" must use exactly one credential form: certificate, p12, or key and cert.');
  if (has('certificate')) {
    if (has('password')) throw invalid('"sign.password" does not go with a stored certificate.');
    return { form: 'stored', certificate: fields.certificate! };
  }
  if (has('p12')) {
    if (!has('password')) throw invalid('"sign.password" is required with "sign.p12" (an empty string for none).');
    const p12 = fields.p12!;
    checkSize('p12', Buffer.byteLength(p12, 'base64'));
    return { form: 'p12', p12, password: fields.password! };
  }
  if (!has('key') || !has('cert')) throw invalid('"sign.key" and "sign.cert" go together.');
  const [key, cert] = [pemOrDer(fields.key!, 'key'), pemOrDer(fields.cert!, 'cert')];
  const chain = fields.chain === undefined ? undefined : pemOrDer(fields.chain, 'chain');
  return { form: 'parts', key, cert, chain, password: fields.password };
}

/** PEM text, or standard Base64 of DER; either way at most 65,536 decoded bytes. */
function pemOrDer(value: string, name: string): string {
  if (value.includes('-----BEGIN ')) {
    const bodies = [...value.matchAll(/-----BEGIN [^-]+-----([\s\S]*?)-----END [^-]+-----/g)];
    if (bodies.length === 0) throw invalid(`"sign.${name}" is not valid PEM.`);
    checkSize(
      name,
      bodies.reduce((sum, body) => sum + Buffer.byteLength(body[1]!.replace(/\s+/g, ''), 'base64'), 0),
    );
    return value;
  }
  if (!STANDARD_BASE64.test(value) || value === '') throw invalid(`"sign.${name}" must be PEM text or standard Base64 of DER.`);
  checkSize(name, Buffer.byteLength(value, 'base64'));
  return value;
}

function checkSize(name: string, decodedBytes: number): void {
  if (decodedBytes > MAX_DECODED_BYTES) {
    throw invalidRequest('credential_too_large', `"sign.${name}" is larger than ${MAX_DECODED_BYTES} bytes.`);
  }
}

function invalid(message: string) {
  return invalidRequest('invalid_seal', message);
}
