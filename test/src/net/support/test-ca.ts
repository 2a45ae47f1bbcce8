/**
 * A certificate authority made for one test run (openssl), and a server certificate it issued
 * for the names the tests use. Services started as child processes trust it through Node's
 * standard NODE_EXTRA_CA_CERTS; nothing else does.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestCa {
  /** The CA certificate's file, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** The server's key and certificate (PEM), valid for `names`. */
  key: string;
  cert: string;
}

export function makeTestCa(names: string[]): TestCa {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-ca-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Quire Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${names[0]}`);
  writeFileSync(
    file('server.ext'),
    [
      `subjectAltName=${names.map((name) => (/^[\d.]+$/.test(name) ? `IP:${name}` : `DNS:${name}`)).join(',')}`,
      'basicConstraints=CA:FALSE',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-out',
    'server.pem',
    '-extfile',
    'server.ext',
  );
  return { caFile: file('ca.pem'), key: readFileSync(file('server.key'), 'utf8'), cert: readFileSync(file('server.pem'), 'utf8') };
}
