/**
 * Why a credential cannot seal (docs/api.md "Seals"). Each reason has one fixed sentence,
 * so nothing that was sent — bytes, names, passwords — can reach an answer or a log.
 */
import { bundleRefusedAsCode, certificateExpired, invalidBundle, type ServiceError } from '../service-error.js';

export const REFUSAL_REASONS = [
  'wrong_password',
  'no_private_key',
  'cert_chain_incomplete',
  'key_cert_mismatch',
  'certificate_expired',
  'certificate_not_yet_valid',
  'unsupported_algorithm',
  'iterations_exceeded',
] as const;

export type RefusalReason = (typeof REFUSAL_REASONS)[number];

const MESSAGES: Record<RefusalReason, string> = {
  wrong_password: 'The password does not open the credential.',
  no_private_key: 'The credential holds no readable private key.',
  cert_chain_incomplete: 'The certificates do not lead from the signing certificate to a self-signed root (at most 16 certificates).',
  key_cert_mismatch: 'The private key does not belong to the signing certificate.',
  certificate_expired: 'A certificate of the chain has expired.',
  certificate_not_yet_valid: 'A certificate of the chain is not valid yet.',
  unsupported_algorithm:
    'The credential uses an algorithm seals do not support: keys must be RSA of 2048 to 8192 bits, ECDSA P-256 or P-384, or Ed25519, encrypted with PBES2 (PBKDF2), 3DES or RC2.',
  iterations_exceeded: 'The credential asks for more key-derivation iterations than this service allows.',
};

/** Thrown by the credential readers; the sealer turns it into the answer. */
export class BundleRefusal extends Error {
  constructor(readonly reason: RefusalReason) {
    super(MESSAGES[reason]);
  }
}

export interface RefusalAnswer {
  /** Answer `wrong_password` and `key_cert_mismatch` as the code itself (compatibility mode). */
  reasonsAsCodes: boolean;
  /** A stored certificate past its validity is answered with the `certificate_expired` code. */
  stored: boolean;
}

export function refusalError(refusal: BundleRefusal, answer: RefusalAnswer): ServiceError {
  const { reason, message } = refusal;
  if (answer.stored && reason === 'certificate_expired') return certificateExpired(message);
  if (answer.reasonsAsCodes && (reason === 'wrong_password' || reason === 'key_cert_mismatch')) {
    return bundleRefusedAsCode(reason, message);
  }
  return invalidBundle(reason, message);
}
