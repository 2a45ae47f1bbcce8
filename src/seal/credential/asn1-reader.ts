/**
 * Reading the ASN.1 of PKCS#12 and PKCS#8 structures (through node-forge's parser) field by
 * field. Any shape that is not what the caller expects throws MalformedAsn1, which the caller
 * turns into the refusal that fits where it happened.
 */
import forge from 'node-forge';

export type Asn1 = forge.asn1.Asn1;

export class MalformedAsn1 extends Error {}

const { asn1 } = forge;

export function parseDer(bytes: Buffer): Asn1 {
  try {
    // Positional options: strict lengths, every byte used, BIT STRINGs left alone.
    return (asn1.fromDer as unknown as (bytes: string, options: object) => Asn1)(bytes.toString('binary'), {
      strict: true,
      parseAllBytes: true,
      decodeBitStrings: false,
    });
  } catch {
    throw new MalformedAsn1();
  }
}

export function toDer(node: Asn1): Buffer {
  return Buffer.from(asn1.toDer(node).getBytes(), 'binary');
}

export function sequence(node: Asn1 | undefined): Asn1[] {
  return children(node, asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE);
}

/** The one value inside a context-specific `[tag] EXPLICIT` wrapper. */
export function explicit(node: Asn1 | undefined, tag: number): Asn1 {
  const [inner] = children(node, asn1.Class.CONTEXT_SPECIFIC, tag);
  if (!inner) throw new MalformedAsn1();
  return inner;
}

export function objectId(node: Asn1 | undefined): string {
  return asn1.derToOid(primitive(node, asn1.Class.UNIVERSAL, asn1.Type.OID));
}

/** Arbitrarily large, so that an absurd iteration count is compared, never wrapped. */
export function integer(node: Asn1 | undefined): bigint {
  const bytes = primitive(node, asn1.Class.UNIVERSAL, asn1.Type.INTEGER);
  if (bytes.length === 0) throw new MalformedAsn1();
  return BigInt(`0x${Buffer.from(bytes, 'binary').toString('hex')}`) - (bytes.charCodeAt(0) & 0x80 ? 1n << BigInt(bytes.length * 8) : 0n);
}

export function isInteger(node: Asn1 | undefined): boolean {
  return node?.tagClass === asn1.Class.UNIVERSAL && node.type === asn1.Type.INTEGER;
}

/**
 * The bytes of an OCTET STRING, or of a context-specific `[tag] IMPLICIT OCTET STRING`; BER's
 * constructed form (chunks of OCTET STRINGs) is joined.
 */
export function octets(node: Asn1 | undefined, tag?: number): Buffer {
  const tagClass = tag === undefined ? asn1.Class.UNIVERSAL : asn1.Class.CONTEXT_SPECIFIC;
  const type = tag ?? asn1.Type.OCTETSTRING;
  if (!node || node.tagClass !== tagClass || node.type !== type) throw new MalformedAsn1();
  if (!node.constructed) return Buffer.from(node.value as string, 'binary');
  return Buffer.concat((node.value as Asn1[]).map((chunk) => octets(chunk)));
}

function children(node: Asn1 | undefined, tagClass: forge.asn1.Class, type: number): Asn1[] {
  if (!node || node.tagClass !== tagClass || node.type !== type || !node.constructed) throw new MalformedAsn1();
  return node.value as Asn1[];
}

function primitive(node: Asn1 | undefined, tagClass: forge.asn1.Class, type: number): string {
  if (!node || node.tagClass !== tagClass || node.type !== type || node.constructed) throw new MalformedAsn1();
  return node.value as string;
}
