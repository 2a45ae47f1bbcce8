/**
 * Credentials are used for their one request and kept nowhere: after sealing requests that
 * succeed and fail — inline and stored, PKCS#12 and separate parts — a canary private key and
 * password appear in no log line, no error body, no command output, and neither in the database
 * file nor in its write-ahead log, in any of the encodings they could take there.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Fixtures, PASSWORD } from './support/openssl-fixtures.js';
import { TEST_MASTER_KEY, testSealer } from './support/test-sealer.js';
import { createAccount, render, startService, type TestService } from '../../support/service-harness.js';

const CLI = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));

describe('seal credentials at rest and in logs', () => {
  let fx: Fixtures;
  let service: TestService;
  const canaryPassword = `canary-${randomUUID()}-Pässwort`;

  before(async () => {
    fx = Fixtures.make();
    // The canary key is the P-256 leaf's; these two files carry it under the canary password.
    execFileSync(
      'openssl',
      ['pkcs12', '-export', '-inkey', 'p256.key', '-in', 'p256.pem', '-certfile', 'chain.pem', '-passout', `pass:${canaryPassword}`, '-out', 'canary.p12'],
      { cwd: fx.dir },
    );
    execFileSync('openssl', ['pkcs8', '-topk8', '-in', 'p256.key', '-passout', `pass:${canaryPassword}`, '-out', 'canary.encrypted.pem'], { cwd: fx.dir });
    service = await startService({ sealer: testSealer({ store: () => service.store, log: (event) => service.logs.push(event) }) });
  });
  after(async () => {
    await service.close();
    fx.remove();
  });

  /** Every form the canary could be written in. */
  function needles(): { name: string; bytes: Buffer }[] {
    const key = createPrivateKey(fx.text('p256.key'));
    const der = key.export({ format: 'der', type: 'pkcs8' });
    const scalar = Buffer.from(key.export({ format: 'jwk' }).d!, 'base64url');
    const pemLines = fx
      .text('p256.key')
      .split('\n')
      .filter((line) => line.length >= 40 && !line.startsWith('-----'));
    const p12 = readFileSync(fx.path('canary.p12'));
    return [
      { name: 'password (UTF-8)', bytes: Buffer.from(canaryPassword, 'utf8') },
      { name: 'password (UTF-16LE)', bytes: Buffer.from(canaryPassword, 'utf16le') },
      { name: 'password (UTF-16BE)', bytes: Buffer.from(canaryPassword, 'utf16le').swap16() },
      {
        name: 'password (JSON-escaped)',
        bytes: Buffer.from(
          JSON.stringify(canaryPassword)
            .slice(1, -1)
            .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
        ),
      },
      { name: 'key (PKCS#8 DER)', bytes: der },
      { name: 'key (private scalar)', bytes: scalar },
      { name: 'key (scalar, hex)', bytes: Buffer.from(scalar.toString('hex')) },
      ...pemLines.map((line, index) => ({ name: `key (PEM line ${index})`, bytes: Buffer.from(line) })),
      { name: 'bundle (DER)', bytes: p12.subarray(0, 256) },
      { name: 'bundle (Base64)', bytes: Buffer.from(p12.toString('base64').slice(0, 64)) },
      { name: 'encrypted key (PEM line)', bytes: Buffer.from(fx.text('canary.encrypted.pem').split('\n')[1]!) },
    ];
  }

  function assertAbsent(haystack: Buffer, where: string): void {
    for (const needle of needles()) assert.equal(haystack.indexOf(needle.bytes), -1, `${needle.name} found in ${where}`);
  }

  it('should leave no trace of a canary key or password after sealing requests that succeed and fail', async () => {
    const owner = await createAccount(service.store, { plan: 'pro' });
    const bodies: string[] = [];
    const send = async (sign: unknown, expected: number) => {
      const response = await render(service, owner.key, { markdown: '# Canary', output: 'json', sign });
      assert.equal(response.status, expected, JSON.stringify(sign).slice(0, 60));
      if (expected !== 200) bodies.push(await response.text());
      else await response.arrayBuffer();
    };

    // Inline credentials that seal…
    await send({ p12: fx.base64('canary.p12'), password: canaryPassword }, 200);
    await send({ key: fx.text('canary.encrypted.pem'), cert: fx.text('p256.pem'), chain: fx.text('chain.pem'), password: canaryPassword }, 200);
    await send({ key: fx.text('p256.key'), cert: fx.text('p256.pem'), chain: fx.text('chain.pem'), reason: 'Canary run' }, 200);
    // …and ones that are refused, carrying the canary all the same.
    await send({ p12: fx.base64('p256.p12'), password: canaryPassword }, 400);
    await send({ p12: fx.base64('canary.p12'), password: PASSWORD }, 400);
    await send({ key: fx.text('p256.key'), cert: fx.text('rsa.pem'), chain: fx.text('chain.pem') }, 400);
    await send({ key: fx.text('canary.encrypted.pem'), cert: 'AAAA', password: canaryPassword }, 400);
    await send({ key: fx.text('p256.key'), cert: fx.text('p256.pem'), pin: canaryPassword }, 400);
    await send({ p12: fx.base64('canary.p12'), password: canaryPassword, key: fx.text('p256.key') }, 400);

    // A stored certificate: added by the command (its output kept), then used by name.
    const added = spawnSync(
      process.execPath,
      [CLI, 'cert', 'add', owner.id, '--name', 'canary', '--p12', fx.path('canary.p12'), '--password', canaryPassword, '--db', service.dbFile],
      { encoding: 'utf8', env: { ...process.env, QUIRE_MASTER_KEY: TEST_MASTER_KEY } },
    );
    assert.equal(added.status, 0, added.stderr);
    const refusedAdd = spawnSync(
      process.execPath,
      [CLI, 'cert', 'add', owner.id, '--name', 'refused', '--p12', fx.path('p256.p12'), '--password', canaryPassword, '--db', service.dbFile],
      { encoding: 'utf8', env: { ...process.env, QUIRE_MASTER_KEY: TEST_MASTER_KEY } },
    );
    assert.equal(refusedAdd.status, 1);
    await send({ certificate: 'canary' }, 200);
    await send({ certificate: 'canary', reason: 'Stored canary' }, 200);

    const wal = `${service.dbFile}-wal`;
    assert.ok(existsSync(wal) && readFileSync(wal).length > 0, 'the write-ahead log holds the recent writes');
    assertAbsent(readFileSync(service.dbFile), 'the database file');
    assertAbsent(readFileSync(wal), 'the write-ahead log');
    assertAbsent(Buffer.from(JSON.stringify(service.logs)), 'the service log');
    assertAbsent(Buffer.from(bodies.join('\n')), 'error bodies');
    assertAbsent(Buffer.from(added.stdout + added.stderr + refusedAdd.stdout + refusedAdd.stderr), 'command output');
    // The needles themselves are findable: the check can fail.
    assert.notEqual(readFileSync(fx.path('canary.p12')).indexOf(needles().find((n) => n.name === 'bundle (DER)')!.bytes), -1);
  });
});
