/**
 * The certificate authorities a render's https images are checked against: Node's own, plus
 * the system's extra ones named by NODE_EXTRA_CA_CERTS. The launcher (bin/quire) hands a render
 * that file as QUIRE_EXTRA_CA_CERTS instead, because Node would parse it at every start, remote
 * images or not; it is read here, only when a render first fetches over https.
 */
import { readFileSync } from 'node:fs';
import { CliError } from '../cli-error.js';

/** Undefined: Node's own list, which already holds NODE_EXTRA_CA_CERTS when Node read it. */
export function trustedCertificates(): readonly string[] | undefined {
  const file = process.env.QUIRE_EXTRA_CA_CERTS;
  if (!file) return undefined;
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read the certificates of NODE_EXTRA_CA_CERTS (${file}): ${(error as NodeJS.ErrnoException).code ?? String(error)}`, 1);
  }
  const extra = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  // node:tls is taken only now, not when this module loads: it is ~5 ms of a render's start.
  return [...process.getBuiltinModule('node:tls').rootCertificates, ...extra];
}
