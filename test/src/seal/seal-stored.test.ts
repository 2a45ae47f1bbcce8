/**
 * Certificates stored in an account with `quire cert add|delete|list`, used by name in sealing
 * requests: the account's own certificate or none — never another's, never a substitute.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { render as renderEngine } from '#engine/index.js';
import { systemClock } from '../../../src/clock.js';
import { masterKey } from '../../../src/seal/stored/master-key.js';
import { sealerFromEnv } from '../../../src/seal/sealer-from-env.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { Fixtures, NON_ASCII_PASSWORD, PASSWORD } from './support/openssl-fixtures.js';
import { TEST_MASTER_KEY, testSealer } from './support/test-sealer.js';
import { independentCheck, pdfsig } from './support/verifiers.js';
import { createAccount, errorBody, render, reservations, startService, type TestAccount, type TestService } from '../../support/service-harness.js';
import { includedDocuments } from '../../../src/limits/plans.js';

const CLI = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));

function quire(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, QUIRE_MASTER_KEY: TEST_MASTER_KEY, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, json: () => JSON.parse(result.stdout) as Record<string, unknown> };
}

describe('stored certificates', () => {
  let fx: Fixtures;
  let service: TestService;
  let owner: TestAccount;
  let stranger: TestAccount;
  /** The sealer's clock, which a test moves past a certificate's end. */
  let sealerNow: number | undefined;

  before(async () => {
    fx = Fixtures.make();
    service = await startService({
      sealer: testSealer({ store: () => service.store, clock: { now: () => sealerNow ?? Date.now() }, log: (event) => service.logs.push(event) }),
    });
    owner = await createAccount(service.store, { plan: 'pro' });
    stranger = await createAccount(service.store, { plan: 'pro' });
  });
  after(async () => {
    await service.close();
    fx.remove();
  });

  const add = (account: string, name: string, ...flags: string[]) => quire(['cert', 'add', account, '--name', name, ...flags, '--db', service.dbFile]);
  const seal = (account: TestAccount, certificate: string) => render(service, account.key, { markdown: `# Sealed with ${certificate}`, sign: { certificate } });

  it('should store a PKCS#12 bundle and separate parts, and list them without any secret', () => {
    const bundle = add(owner.id, 'company', '--p12', fx.path('p256.p12'), '--password', PASSWORD);
    assert.equal(bundle.status, 0, bundle.stderr);
    assert.deepEqual(
      { ...bundle.json(), not_after: undefined, created_at: undefined },
      {
        account: owner.id,
        name: 'company',
        key_type: 'ecdsa-p256',
        not_after: undefined,
        created_at: undefined,
      },
    );
    assert.equal(add(owner.id, 'ed', '--key', fx.path('ed25519.der'), '--cert', fx.path('ed25519.cert.der'), '--chain', fx.path('chain.pem')).status, 0);
    const encrypted = add(
      owner.id,
      'encrypted',
      '--key',
      fx.path('p384.encrypted.pem'),
      '--cert',
      fx.path('p384.pem'),
      '--chain',
      fx.path('chain.pem'),
      '--password',
      NON_ASCII_PASSWORD,
    );
    assert.equal(encrypted.status, 0, encrypted.stderr);

    const listed = quire(['cert', 'list', owner.id, '--db', service.dbFile]);
    assert.equal(listed.status, 0);
    const certificates = listed.json().certificates as { name: string; key_type: string }[];
    assert.deepEqual(
      certificates.map((c) => [c.name, c.key_type]),
      [
        ['company', 'ecdsa-p256'],
        ['ed', 'ed25519'],
        ['encrypted', 'ecdsa-p384'],
      ],
    );
    for (const output of [bundle, encrypted, listed])
      assert.ok(!(output.stdout + output.stderr).includes(PASSWORD) && !output.stdout.includes(NON_ASCII_PASSWORD));
  });

  it('should seal with the stored certificate named in the request', async () => {
    const response = await seal(owner, 'company');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-service-signature'), 'signed');
    const verdict = await pdfsig(new Uint8Array(await response.arrayBuffer()));
    assert.ok(verdict.valid && verdict.totalDocumentSigned, verdict.output);
    assert.match(verdict.output, /Common Name: Quire p256 signer/);

    const ed = await seal(owner, 'ed');
    assert.equal(ed.status, 200);
    assert.ok((await independentCheck(new Uint8Array(await ed.arrayBuffer()))).valid);
  });

  it('should answer a missing or deleted name 400 unknown_signing_identity, before reserving', async () => {
    const account = await createAccount(service.store, { plan: 'pro' });
    assert.equal(add(account.id, 'temporary', '--p12', fx.path('rsa.p12'), '--password', PASSWORD).status, 0);
    assert.equal((await seal(account, 'temporary')).status, 200);
    const deleted = quire(['cert', 'delete', account.id, '--name', 'temporary', '--db', service.dbFile]);
    assert.deepEqual([deleted.status, deleted.json()], [0, { account: account.id, name: 'temporary', deleted: true }]);
    for (const name of ['temporary', 'never-added']) {
      const response = await seal(account, name);
      assert.equal(response.status, 400);
      assert.equal((await errorBody(response)).code, 'unknown_signing_identity');
    }
    assert.deepEqual(
      reservations(service, account.id).map((row) => row.state),
      ['charged'],
    );
    assert.equal(quire(['cert', 'delete', account.id, '--name', 'temporary', '--db', service.dbFile]).status, 1);
  });

  it('should never let one account seal with another’s certificate, nor substitute its own', async () => {
    const borrowed = await seal(stranger, 'company');
    assert.equal(borrowed.status, 400);
    assert.equal((await errorBody(borrowed)).code, 'unknown_signing_identity');

    // The same name in another account is another certificate.
    assert.equal(add(stranger.id, 'company', '--p12', fx.path('rsa.p12'), '--password', PASSWORD).status, 0);
    const own = await pdfsig(new Uint8Array(await (await seal(stranger, 'company')).arrayBuffer()));
    assert.match(own.output, /Common Name: Quire rsa signer/);
    const owners = await pdfsig(new Uint8Array(await (await seal(owner, 'company')).arrayBuffer()));
    assert.match(owners.output, /Common Name: Quire p256 signer/);

    // A record copied into another account in the database does not open there.
    const db = new Database(service.dbFile);
    db.prepare(
      `INSERT INTO certificates (account_id, name, sealed, key_type, not_after, created_at)
       SELECT ?, 'copied', sealed, key_type, not_after, created_at FROM certificates WHERE account_id = ? AND name = 'company'`,
    ).run(stranger.id, owner.id);
    db.close();
    const copied = await seal(stranger, 'copied');
    assert.equal(copied.status, 503);
    const error = await errorBody(copied);
    assert.deepEqual([error.code, error.reason], ['signing_unavailable', 'stored_certificate_unreadable']);
  });

  it('should answer a stored certificate past its validity 400 certificate_expired', async () => {
    sealerNow = Date.now() + 2 * 365 * 86_400_000;
    try {
      const response = await seal(owner, 'company');
      assert.equal(response.status, 400);
      const error = await errorBody(response);
      assert.deepEqual([error.code, error.reason], ['certificate_expired', 'certificate_expired']);
    } finally {
      sealerNow = undefined;
    }
  });

  it('should refuse to store a credential that cannot seal, a second one of the same name, and two forms at once', () => {
    const wrong = add(owner.id, 'wrong', '--p12', fx.path('p256.p12'), '--password', 'not it');
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /refused \(wrong_password\)/);
    assert.doesNotMatch(wrong.stderr, /not it/);
    assert.match(add(owner.id, 'old', '--p12', fx.path('expired.p12'), '--password', PASSWORD).stderr, /certificate_expired/);
    const duplicate = add(owner.id, 'company', '--p12', fx.path('p384.p12'), '--password', PASSWORD);
    assert.equal(duplicate.status, 1);
    assert.match(duplicate.stderr, /already has a certificate named "company"/);
    const both = add(owner.id, 'both', '--p12', fx.path('p384.p12'), '--password', PASSWORD, '--key', fx.path('p384.key'), '--cert', fx.path('p384.pem'));
    assert.equal(both.status, 2);
    assert.match(both.stderr, /exactly one credential form/);
    assert.equal(quire(['cert', 'add', 'acct_missing', '--name', 'x', '--p12', fx.path('p256.p12'), '--password', PASSWORD, '--db', service.dbFile]).status, 1);
  });
});

describe('the master key file', () => {
  let dir: string;
  let fx: Fixtures;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'quire-master-key-'));
    fx = Fixtures.make();
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    fx.remove();
  });

  it('should be created beside the database with owner-only permissions, used by the service, and refused once others can read it', async () => {
    const db = path.join(dir, 'data', 'quire.db');
    const store = SqliteStore.open(db, systemClock, { included: includedDocuments });
    const account = await store.createAccount({ email: 'seal@example.com', plan: 'pro', emailVerified: true });
    await store.close();

    const added = quire(['cert', 'add', account.id, '--name', 'main', '--p12', fx.path('p256.p12'), '--password', PASSWORD, '--db', db], {
      QUIRE_MASTER_KEY: '',
    });
    assert.equal(added.status, 0, added.stderr);
    const keyFile = path.join(dir, 'data', 'master.key');
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);

    // The service, started with the same environment, opens what the command stored.
    const reopened = SqliteStore.open(db, systemClock, { included: includedDocuments });
    try {
      const sealer = sealerFromEnv({}, { store: reopened, location: { kind: 'sqlite', file: db }, clock: systemClock, log: () => undefined });
      const opened = await sealer.open(
        { credential: { form: 'stored', certificate: 'main' }, reason: undefined, location: undefined, contact: undefined },
        account.id,
      );
      const sealed = await opened.apply((await renderEngine('# Stored', {})).pdf);
      assert.ok((await pdfsig(sealed)).valid);
    } finally {
      await reopened.close();
    }

    chmodSync(keyFile, 0o644);
    assert.throws(() => masterKey({}, { kind: 'sqlite', file: db }), /readable by its owner only/);
    assert.throws(() => masterKey({}, { kind: 'postgres', url: 'postgres://quire@127.0.0.1/quire' }), /set QUIRE_MASTER_KEY or QUIRE_MASTER_KEY_FILE/);
  });
});
