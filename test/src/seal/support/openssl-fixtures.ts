/**
 * Seal credentials made by `openssl` in a temporary folder, the way users make theirs: a root CA
 * (RSA), an intermediate (ECDSA P-384), leaves for every key type, expired and not-yet-valid
 * leaves, keys in every encoding, and PKCS#12 bundles as OpenSSL 3 writes them by default and
 * in legacy form, with and without MAC, with empty and non-ASCII passwords.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export const PASSWORD = 'correct horse';
export const NON_ASCII_PASSWORD = 'Pässwörd ✓ 密码';

export type LeafName = 'rsa' | 'p256' | 'p384' | 'ed25519' | 'rsa1024' | 'expired' | 'future' | 'other';

const KEYS: Record<LeafName, string[]> = {
  rsa: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
  p256: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  p384: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384'],
  ed25519: ['-algorithm', 'ED25519'],
  rsa1024: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'],
  expired: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  future: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  other: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
};

const DATES: Partial<Record<LeafName, string[]>> = {
  expired: ['-startdate', '20200101000000Z', '-enddate', '20210101000000Z'],
  future: ['-startdate', '20990101000000Z', '-enddate', '21000101000000Z'],
};

const CONFIG = `
[ ca ]
default_ca = test_ca
[ test_ca ]
dir = .
database = index.txt
new_certs_dir = newcerts
serial = serial
default_md = sha256
policy = any_name
unique_subject = no
[ any_name ]
commonName = supplied
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
[ ca_ext ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ leaf_ext ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

export class Fixtures {
  private constructor(readonly dir: string) {}

  /** Makes everything but the slow bundles (see tenMillionIterations). */
  static make(): Fixtures {
    const fixtures = new Fixtures(mkdtempSync(path.join(tmpdir(), 'quire-seal-fixtures-')));
    fixtures.makeAll();
    return fixtures;
  }

  path(name: string): string {
    return path.join(this.dir, name);
  }

  text(name: string): string {
    return readFileSync(this.path(name), 'utf8');
  }

  base64(name: string): string {
    return readFileSync(this.path(name)).toString('base64');
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A bundle with 10,000,000 iterations for the MAC and both encrypted bags; OpenSSL itself takes seconds. */
  async tenMillionIterations(): Promise<string> {
    await promisify(execFile)(
      'openssl',
      [
        'pkcs12',
        '-export',
        '-iter',
        '10000000',
        '-inkey',
        'p256.key',
        '-in',
        'p256.pem',
        '-certfile',
        'chain.pem',
        '-passout',
        `pass:${PASSWORD}`,
        '-out',
        'iter10m.p12',
      ],
      { cwd: this.dir },
    );
    return this.base64('iter10m.p12');
  }

  private openssl(...args: string[]): void {
    execFileSync('openssl', args, { cwd: this.dir, stdio: ['ignore', 'ignore', 'pipe'] });
  }

  private makeAll(): void {
    writeFileSync(this.path('ca.cnf'), CONFIG);
    writeFileSync(this.path('index.txt'), '');
    writeFileSync(this.path('serial'), '1000\n');
    mkdirSync(this.path('newcerts'));

    this.openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'root.key');
    this.openssl(
      'req',
      '-x509',
      '-config',
      'ca.cnf',
      '-extensions',
      'ca_ext',
      '-key',
      'root.key',
      '-subj',
      '/CN=Quire Test Root',
      '-days',
      '3650',
      '-out',
      'root.pem',
    );
    this.openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384', '-out', 'int.key');
    this.signed('int', 'root', 'ca_ext', '/CN=Quire Test Intermediate');
    writeFileSync(this.path('chain.pem'), this.text('int.pem') + this.text('root.pem'));

    for (const leaf of Object.keys(KEYS) as LeafName[]) {
      this.openssl('genpkey', ...KEYS[leaf], '-out', `${leaf}.key`);
      this.signed(leaf, 'int', 'leaf_ext', `/CN=Quire ${leaf} signer/O=Quire Tests`, DATES[leaf]);
    }

    // Key encodings beyond PKCS#8 PEM.
    this.openssl('pkey', '-in', 'rsa.key', '-traditional', '-out', 'rsa.pkcs1.pem');
    this.openssl('pkey', '-in', 'rsa.key', '-traditional', '-aes256', '-passout', `pass:${PASSWORD}`, '-out', 'rsa.pkcs1-encrypted.pem');
    this.openssl('pkey', '-in', 'p256.key', '-traditional', '-out', 'p256.sec1.pem');
    this.openssl('pkey', '-in', 'p256.key', '-traditional', '-outform', 'DER', '-out', 'p256.sec1.der');
    this.openssl('pkey', '-in', 'ed25519.key', '-outform', 'DER', '-out', 'ed25519.der');
    this.openssl('x509', '-in', 'ed25519.pem', '-outform', 'DER', '-out', 'ed25519.cert.der');
    this.openssl('pkcs8', '-topk8', '-in', 'p384.key', '-passout', `pass:${NON_ASCII_PASSWORD}`, '-out', 'p384.encrypted.pem');
    this.openssl('pkcs8', '-topk8', '-v1', 'PBE-SHA1-3DES', '-in', 'p256.key', '-passout', `pass:${PASSWORD}`, '-out', 'p256.encrypted-3des.pem');
    this.openssl('pkcs8', '-topk8', '-in', 'ed25519.key', '-passout', `pass:${PASSWORD}`, '-outform', 'DER', '-out', 'ed25519.encrypted.der');
    // scrypt could be told to take gigabytes: not a scheme seals accept.
    this.openssl('pkcs8', '-topk8', '-scrypt', '-in', 'p256.key', '-passout', `pass:${PASSWORD}`, '-out', 'p256.scrypt.pem');

    // PKCS#12: OpenSSL 3's default (PBES2, AES-256, PBKDF2-SHA256, SHA-256 MAC) for every key type…
    for (const leaf of ['rsa', 'p256', 'p384', 'ed25519', 'rsa1024', 'expired', 'future'] as const) this.bundle(`${leaf}.p12`, leaf, PASSWORD);
    // …legacy (RC2-40 certificates, 3DES key, SHA-1 MAC), without MAC, empty and non-ASCII passwords…
    this.bundle('rsa.legacy.p12', 'rsa', PASSWORD, ['-legacy']);
    this.bundle('ed25519.legacy.p12', 'ed25519', PASSWORD, ['-legacy']);
    this.bundle('p256.nomac.p12', 'p256', PASSWORD, ['-nomac']);
    this.bundle('p384.legacy-nomac.p12', 'p384', PASSWORD, ['-legacy', '-nomac']);
    this.bundle('p256.empty.p12', 'p256', '');
    this.bundle('rsa.legacy-empty.p12', 'rsa', '', ['-legacy']);
    this.bundle('p384.non-ascii.p12', 'p384', NON_ASCII_PASSWORD);
    this.bundle('ed25519.legacy-non-ascii.p12', 'ed25519', NON_ASCII_PASSWORD, ['-legacy']);
    // …and the incomplete ones.
    this.bundle('p256.no-chain.p12', 'p256', PASSWORD, [], false);
    this.openssl('pkcs12', '-export', '-nocerts', '-inkey', 'p256.key', '-passout', `pass:${PASSWORD}`, '-out', 'key-only.p12');
    this.openssl('pkcs12', '-export', '-nokeys', '-in', 'p256.pem', '-certfile', 'chain.pem', '-passout', `pass:${PASSWORD}`, '-out', 'cert-only.p12');
  }

  private signed(name: string, issuer: string, extensions: string, subject: string, dates = ['-days', '365']): void {
    this.openssl('req', '-new', '-config', 'ca.cnf', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
    this.openssl(
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-cert',
      `${issuer}.pem`,
      '-keyfile',
      `${issuer}.key`,
      '-extensions',
      extensions,
      '-notext',
      ...dates,
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.pem`,
    );
  }

  private bundle(file: string, leaf: LeafName, password: string, options: string[] = [], withChain = true): void {
    this.openssl(
      'pkcs12',
      '-export',
      ...options,
      '-inkey',
      `${leaf}.key`,
      '-in',
      `${leaf}.pem`,
      ...(withChain ? ['-certfile', 'chain.pem'] : []),
      '-passout',
      `pass:${password}`,
      '-out',
      file,
    );
  }
}
