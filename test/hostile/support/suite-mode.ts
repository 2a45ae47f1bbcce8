/** QUIRE_SUITE=full runs a suite at its stated size; anything else (CI's default) runs its short form. */
export const FULL = process.env.QUIRE_SUITE === 'full';

/** `full` in the full suite, `short` otherwise. */
export function bySuite<T>(short: T, full: T): T {
  return FULL ? full : short;
}

export const MIB = 1024 * 1024;
