/**
 * The password work one credential may cost. Every key derivation (PKCS#12 MAC, encrypted bag or
 * container, encrypted PKCS#8) is charged its iteration count, read from the structure, before it
 * runs: one count above the cap, or a file whose counts add up past the total, is refused as
 * `iterations_exceeded` without any derivation — a `-iter 10000000` bundle costs a parse.
 */
import { BundleRefusal } from '../bundle-refusal.js';

/** A file may spend the cap this many times over (OpenSSL's own files spend about 3 × 2,048). */
const TOTAL_FACTOR = 4;

export class KdfBudget {
  private spent = 0n;

  constructor(private readonly maxIterations: number) {}

  /** `derivations` runs of a KDF with `iterations` each (PKCS#12 PBE derives key and IV apart). */
  charge(iterations: bigint, derivations = 1): void {
    if (iterations > BigInt(this.maxIterations)) throw new BundleRefusal('iterations_exceeded');
    this.spent += iterations * BigInt(derivations);
    if (this.spent > BigInt(this.maxIterations * TOTAL_FACTOR)) throw new BundleRefusal('iterations_exceeded');
  }
}
