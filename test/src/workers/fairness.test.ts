/**
 * One account flooding the service cannot make another wait for its flood, through the real
 * service: renders wait for a worker in turn between accounts, a full queue sheds the flood's
 * newest render, and credentials are opened only inside the account's concurrency slots, in turn
 * with other accounts' and never on every credential thread at once.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_MAX_ITERATIONS } from '../../../src/seal/seal-settings.js';
import { Fixtures, PASSWORD } from '../seal/support/openssl-fixtures.js';
import { testSealer } from '../seal/support/test-sealer.js';
import { createAccount, errorBody, render, reservations, startService, type TestAccount, type TestService } from '../../support/service-harness.js';

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

/** Sends requests and notes the order their answers arrive in, as `<label> <status>[ <code>]`. */
class Arrivals {
  readonly order: string[] = [];
  private readonly sent: Promise<void>[] = [];

  send(service: TestService, account: TestAccount, label: string, body: unknown): void {
    this.sent.push(
      render(service, account.key, body).then(async (response) => {
        const code = response.status === 200 ? (await response.arrayBuffer(), '') : ` ${(await errorBody(response)).code}`;
        this.order.push(`${label} ${response.status}${code}`);
      }),
    );
  }

  async all(): Promise<string[]> {
    await Promise.all(this.sent);
    return this.order;
  }
}

describe('renders shared fairly between accounts', () => {
  let service: TestService;

  before(async () => {
    service = await startService({ standIn: true, deployment: { workers: 1, queueLimit: 64 } });
  });
  after(() => service.close());

  it("should start another account's render as soon as the flooding account's running render ends", async () => {
    const flooder = await createAccount(service.store, { plan: 'scale' });
    const victim = await createAccount(service.store);
    const gate = path.join(service.dir, 'flood-gate');
    const arrivals = new Arrivals();
    arrivals.send(service, flooder, 'held', `gate:${gate}\n# Held`);
    await until(() => reservations(service, flooder.id).length === 1);
    for (let n = 1; n <= 8; n += 1) arrivals.send(service, flooder, 'flood', `# Flood ${n}`);
    await until(() => reservations(service, flooder.id).length === 9);
    arrivals.send(service, victim, 'victim', '# Victim');
    await until(() => reservations(service, victim.id).length === 1);
    writeFileSync(gate, '');
    assert.deepEqual(await arrivals.all(), ['held 200', 'victim 200', ...Array<string>(8).fill('flood 200')]);
  });

  it("should turn away the flooding account's newest waiting render when the queue is full, not another account's", async () => {
    const full = await startService({ standIn: true, deployment: { workers: 1, queueLimit: 3 } });
    try {
      const flooder = await createAccount(full.store, { plan: 'scale' });
      const victim = await createAccount(full.store);
      const gate = path.join(full.dir, 'full-gate');
      const arrivals = new Arrivals();
      arrivals.send(full, flooder, 'held', `gate:${gate}\n# Held`);
      await until(() => reservations(full, flooder.id).length === 1);
      for (let n = 1; n <= 3; n += 1) {
        arrivals.send(full, flooder, `flood ${n}`, `# Flood ${n}`);
        await until(() => reservations(full, flooder.id).length === n + 1);
      }
      arrivals.send(full, victim, 'victim', '# Victim');
      // The flood's newest makes room, and is answered at once.
      await until(() => arrivals.order.length === 1);
      assert.deepEqual(arrivals.order, ['flood 3 503 queue_full']);
      writeFileSync(gate, '');
      assert.deepEqual(await arrivals.all(), ['flood 3 503 queue_full', 'held 200', 'victim 200', 'flood 1 200', 'flood 2 200']);
      assert.deepEqual(reservations(full, flooder.id).at(-1), { state: 'returned', error_code: 'queue_full', pages: null });
      assert.deepEqual(
        reservations(full, victim.id).map((row) => row.state),
        ['charged'],
      );
    } finally {
      await full.close();
    }
  });

  it('should keep a worker for the others while more than one account is active, so a newcomer starts at once', async () => {
    const two = await startService({ standIn: true, deployment: { workers: 2, queueLimit: 64 } });
    try {
      const flooder = await createAccount(two.store, { plan: 'scale' });
      const victim = await createAccount(two.store);
      assert.equal((await render(two, victim.key, '# Earlier')).status, 200, 'the victim was active a moment ago');
      const gate = path.join(two.dir, 'two-gate');
      const arrivals = new Arrivals();
      for (let n = 1; n <= 3; n += 1) arrivals.send(two, flooder, `flood ${n}`, `gate:${gate}\n# Flood ${n}`);
      await until(() => reservations(two, flooder.id).length === 3);
      arrivals.send(two, victim, 'victim', '# Victim');
      // With both workers given to the flood, the victim would wait for the gate.
      await Promise.race([until(() => arrivals.order.length > 0), sleep(3_000)]);
      writeFileSync(gate, '');
      assert.deepEqual((await arrivals.all())[0], 'victim 200');
    } finally {
      await two.close();
    }
  });
});

describe('credentials opened fairly between accounts', () => {
  let fx: Fixtures;
  let service: TestService;
  /** Wrong at the deployment's iteration cap: a SHA-512 MAC, tried twice for an empty password — most of a second. */
  let heavy: { p12: string; password: string };
  const sealed = () => ({ markdown: '# Sealed', sign: { p12: fx.base64('p256.p12'), password: PASSWORD } });

  before(async () => {
    fx = Fixtures.make();
    const iterations = String(DEFAULT_MAX_ITERATIONS);
    execFileSync(
      'openssl',
      [
        'pkcs12',
        '-export',
        '-iter',
        iterations,
        '-noiter',
        '-macalg',
        'sha512',
        '-inkey',
        'p256.key',
        '-in',
        'p256.pem',
        '-certfile',
        'chain.pem',
        '-passout',
        `pass:${PASSWORD}`,
        '-out',
        'heavy.p12',
      ],
      { cwd: fx.dir },
    );
    heavy = { p12: fx.base64('heavy.p12'), password: '' };
    service = await startService({ standIn: true, sealer: testSealer({ store: () => service.store, settings: { maxIterations: DEFAULT_MAX_ITERATIONS } }) });
  });
  after(async () => {
    await service.close();
    fx.remove();
  });

  it("should open a credential only inside one of the account's concurrency slots, a refusal still reserving nothing", async () => {
    const account = await createAccount(service.store, { plan: 'pro', overrides: { concurrency: 1 } });
    const wrong = { markdown: '# No', sign: { p12: fx.base64('p256.p12'), password: 'not the password' } };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      // A refused credential gives its slot back.
      const refused = await render(service, account.key, wrong);
      assert.equal(refused.status, 400);
      assert.deepEqual(pick(await errorBody(refused), 'code', 'reason'), { code: 'invalid_bundle', reason: 'wrong_password' });
    }
    const gate = path.join(service.dir, 'slot-gate');
    const held = render(service, account.key, `gate:${gate}\n# Held`);
    await until(() => reservations(service, account.id).length === 1);
    const limited = await render(service, account.key, wrong);
    assert.equal(limited.status, 429);
    assert.deepEqual(pick(await errorBody(limited), 'code', 'limit'), { code: 'rate_limited', limit: { name: 'concurrency', value: 1, plan: 'pro' } });
    writeFileSync(gate, '');
    assert.equal((await held).status, 200);
    assert.deepEqual(
      reservations(service, account.id).map((row) => row.state),
      ['charged'],
    );
  });

  it("should seal another account's render while one account floods wrong passwords at the iteration cap", async () => {
    const flooder = await createAccount(service.store, { plan: 'scale' });
    const victim = await createAccount(service.store, { plan: 'pro' });
    const arrivals = new Arrivals();
    for (let n = 0; n < 4; n += 1) arrivals.send(service, flooder, 'flood', { markdown: '# Flood', sign: heavy });
    await sleep(300);
    arrivals.send(service, victim, 'victim', sealed());
    const order = await arrivals.all();
    assert.ok(order.indexOf('victim 200') <= 1, `the victim waited for more than one key derivation: ${order.join(', ')}`);
    assert.deepEqual(
      order.filter((answer) => answer !== 'victim 200'),
      Array<string>(4).fill('flood 400 invalid_bundle'),
    );
  });

  it('should give a third account the next free credential thread while two accounts flood', async () => {
    const [first, second] = [await createAccount(service.store, { plan: 'scale' }), await createAccount(service.store, { plan: 'scale' })];
    const third = await createAccount(service.store, { plan: 'pro' });
    const arrivals = new Arrivals();
    for (let n = 0; n < 3; n += 1) {
      arrivals.send(service, first, 'flood', { markdown: '# First', sign: heavy });
      arrivals.send(service, second, 'flood', { markdown: '# Second', sign: heavy });
    }
    await sleep(300);
    arrivals.send(service, third, 'third', sealed());
    const order = await arrivals.all();
    assert.ok(order.indexOf('third 200') <= 2, `the third account waited for more than one derivation of each: ${order.join(', ')}`);
  });
});

function pick(body: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, body[key]]));
}
