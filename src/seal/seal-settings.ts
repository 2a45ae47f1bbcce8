/** How this deployment seals, from the environment (`quire serve` and `quire cert add` read the same). */

export interface SealSettings {
  /** Largest iteration count of any one key derivation in a credential (QUIRE_SEAL_MAX_ITERATIONS). */
  maxIterations: number;
  /** Compatibility: `wrong_password` and `key_cert_mismatch` answered as the error code (QUIRE_SEAL_REASON_CODES=true). */
  reasonsAsCodes: boolean;
}

/** Well above what OpenSSL (2,048), Java's keytool (10,000) and Windows (2,000) write. */
export const DEFAULT_MAX_ITERATIONS = 100_000;

export function sealSettingsFromEnv(env: NodeJS.ProcessEnv): SealSettings {
  const rawIterations = env.QUIRE_SEAL_MAX_ITERATIONS;
  const maxIterations = rawIterations ? Number(rawIterations) : DEFAULT_MAX_ITERATIONS;
  if (!Number.isSafeInteger(maxIterations) || maxIterations < 1) {
    throw new Error('QUIRE_SEAL_MAX_ITERATIONS must be a positive whole number');
  }
  const rawCodes = env.QUIRE_SEAL_REASON_CODES;
  if (rawCodes !== undefined && rawCodes !== '' && rawCodes !== 'true' && rawCodes !== 'false') {
    throw new Error('QUIRE_SEAL_REASON_CODES must be true or false');
  }
  return { maxIterations, reasonsAsCodes: rawCodes === 'true' };
}
