/**
 * Judges of a sealed PDF that are not Quire: poppler's `pdfsig` (RSA and ECDSA; its exit code is
 * 0 even for an invalid signature, so its words are read) and a Python checker built on
 * asn1crypto and cryptography (every key type, Ed25519 included).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pdfFile } from '../../../support/pdf-tools.js';

const run = promisify(execFile);
const CHECKER = fileURLToPath(new URL('../../../../../test/src/seal/support/verify_pdf_signature.py', import.meta.url));
/** Debian's interpreter, where python3-cryptography and python3-asn1crypto are installed. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

export interface PdfsigVerdict {
  output: string;
  valid: boolean;
  totalDocumentSigned: boolean;
}

export async function pdfsig(bytes: Uint8Array): Promise<PdfsigVerdict> {
  const { stdout } = await run('pdfsig', [pdfFile(bytes, 'sealed')], { encoding: 'utf8' });
  return {
    output: stdout,
    valid: /Signature Validation: Signature is Valid\./.test(stdout),
    totalDocumentSigned: /Total document signed/.test(stdout),
  };
}

export interface CheckerVerdict {
  valid: boolean;
  total?: boolean;
  digest?: string;
  signature_algorithm?: string;
  signer?: string;
  chain?: number;
  digest_matches?: boolean;
  signing_certificate_v2?: boolean;
  signing_time_attribute?: boolean;
  signature_verifies?: boolean;
  chain_verifies?: boolean;
  error?: string;
}

export async function independentCheck(bytes: Uint8Array): Promise<CheckerVerdict> {
  const { stdout } = await run(PYTHON, [CHECKER, pdfFile(bytes, 'sealed')], { encoding: 'utf8' });
  return JSON.parse(stdout) as CheckerVerdict;
}
