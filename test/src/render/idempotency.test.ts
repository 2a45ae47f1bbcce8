/** Every transition of SPEC "Idempotency key", with the clock moved by hand. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAccount, render, reservations, startService, usage, type TestService } from '../../support/service-harness.js';

const HOUR = 3_600_000;

describe('idempotency keys', () => {
  let service: TestService;
  let gates = 0;

  before(async () => {
    service = await startService({ standIn: true });
  });
  after(() => service.close());

  /** A document whose render waits until `open()` is called. */
  function gated(text: string) {
    const file = path.join(service.dir, `gate-${(gates += 1)}`);
    return { markdown: `gate:${file}\n${text}`, open: () => writeFileSync(file, '') };
  }

  async function creditsUsed(key: string): Promise<number> {
    return ((await (await usage(service, key)).json()) as { credits_used: number }).credits_used;
  }

  async function send(key: string, idempotencyKey: string, body: unknown) {
    const response = await render(service, key, body, { 'Idempotency-Key': idempotencyKey });
    const bytes = await response.arrayBuffer();
    return { response, bytes };
  }

  it('should charge the first attempt, then replay at no charge up to the Free allowance, then refuse until expiry', async () => {
    const account = await createAccount(service.store, { plan: 'free' });
    const first = await send(account.key, 'order-1', { markdown: '# Invoice 1' });
    assert.equal(first.response.status, 200);
    assert.equal(first.response.headers.get('x-service-replay'), null);
    assert.equal(await creditsUsed(account.key), 1);

    for (let replay = 1; replay <= 2; replay += 1) {
      const again = await send(account.key, 'order-1', { markdown: '# Invoice 1', output: 'json' });
      assert.equal(again.response.status, 200);
      assert.equal(again.response.headers.get('x-service-replay'), 'true');
      assert.equal(again.response.headers.get('x-service-sha256'), first.response.headers.get('x-service-sha256'));
    }
    assert.equal(await creditsUsed(account.key), 1);

    service.clock.advance(HOUR);
    const refused = await send(account.key, 'order-1', { markdown: '# Invoice 1' });
    assert.equal(refused.response.status, 429);
    assert.equal(refused.response.headers.get('retry-after'), String(23 * 3600));
    assert.equal(JSON.parse(Buffer.from(refused.bytes).toString()).code, 'idempotency_replay_limit');
    assert.equal(await creditsUsed(account.key), 1);
    assert.equal(reservations(service, account.id).length, 1);
  });

  it('should allow five replays on a paid plan', async () => {
    const account = await createAccount(service.store, { plan: 'pro' });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await send(account.key, 'paid', { markdown: '# Paid' })).response.status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429]);
    assert.equal(await creditsUsed(account.key), 1);
  });

  it('should answer 409 with Retry-After: 2 while the first request runs, and never render twice', async () => {
    const account = await createAccount(service.store);
    const doc = gated('# Slow');
    const first = send(account.key, 'slow', { markdown: doc.markdown });
    // Whichever request claims the key first runs; every other one is refused while it does.
    const others = await Promise.all(Array.from({ length: 9 }, () => send(account.key, 'slow', { markdown: doc.markdown })));
    const differentDoc = await send(account.key, 'slow', { markdown: '# Something else' });
    doc.open();
    const all = [await first, ...others, differentDoc];
    const statuses = all.map(({ response }) => response.status).sort();
    assert.deepEqual(statuses, [200, ...Array(10).fill(409)]);
    for (const { response, bytes } of all.filter(({ response }) => response.status === 409)) {
      assert.equal(response.headers.get('retry-after'), '2');
      assert.equal(JSON.parse(Buffer.from(bytes).toString()).code, 'idempotency_in_progress');
    }
    assert.deepEqual(
      reservations(service, account.id).map((row) => row.state),
      ['charged'],
    );
  });

  it('should answer 422 idempotency_mismatch for a different document or different features, rendering and charging nothing', async () => {
    const account = await createAccount(service.store);
    assert.equal((await send(account.key, 'doc', { markdown: '# Original' })).response.status, 200);
    for (const body of [{ markdown: '# Changed' }, { markdown: '# Original', features: { theme: 'dark' } }, { markdown: '# Original', language: 'de' }]) {
      const { response, bytes } = await send(account.key, 'doc', body);
      assert.equal(response.status, 422);
      assert.equal(JSON.parse(Buffer.from(bytes).toString()).code, 'idempotency_mismatch');
    }
    assert.equal(reservations(service, account.id).length, 1);
    // Delivery choices are not part of the document: a replay may change them.
    const replay = await send(account.key, 'doc', { markdown: '# Original', output: 'json', filename: 'other.pdf' });
    assert.equal(replay.response.status, 200);
    assert.equal(replay.response.headers.get('x-service-replay'), 'true');
  });

  it('should release the key at once when the request fails, so a retry is a charged first attempt', async () => {
    const account = await createAccount(service.store, { overrides: { pages_max: 1 } });
    const long = 'Text that fills pages.\n\n'.repeat(300);
    const failed = await send(account.key, 'retry-me', { markdown: long });
    assert.equal(failed.response.status, 422);
    const again = await send(account.key, 'retry-me', { markdown: long });
    assert.equal(again.response.status, 422, 'the same failing document is rendered again, not refused as in progress');
    const fixed = await send(account.key, 'retry-me', { markdown: '# Short now' });
    assert.equal(fixed.response.status, 200);
    assert.equal(fixed.response.headers.get('x-service-replay'), null);
    assert.deepEqual(
      reservations(service, account.id).map((row) => [row.state, row.error_code]),
      [
        ['returned', 'too_many_pages'],
        ['returned', 'too_many_pages'],
        ['charged', null],
      ],
    );
  });

  it('should release the key when the quota refuses the first attempt', async () => {
    const account = await createAccount(service.store, { overrides: { documents: 0 } });
    const refused = await send(account.key, 'no-quota', { markdown: '# Hi' });
    assert.equal(refused.response.status, 402);
    await service.store.grantDocuments(account.id, 1);
    assert.equal((await send(account.key, 'no-quota', { markdown: '# Hi' })).response.status, 200);
  });

  it('should treat the key as fresh 24 hours after it was created, charging again', async () => {
    const account = await createAccount(service.store);
    assert.equal((await send(account.key, 'daily', { markdown: '# Daily' })).response.status, 200);
    service.clock.advance(24 * HOUR - 1000);
    const replay = await send(account.key, 'daily', { markdown: '# Daily' });
    assert.equal(replay.response.headers.get('x-service-replay'), 'true');
    service.clock.advance(1000);
    const fresh = await send(account.key, 'daily', { markdown: '# A different document is fine now' });
    assert.equal(fresh.response.status, 200);
    assert.equal(fresh.response.headers.get('x-service-replay'), null);
    assert.deepEqual(
      reservations(service, account.id).map((row) => row.state),
      ['charged', 'charged'],
    );
  });

  it('should replay at no charge even when the period has no documents left', async () => {
    const account = await createAccount(service.store, { overrides: { documents: 1 } });
    assert.equal((await send(account.key, 'last', { markdown: '# Last one' })).response.status, 200);
    const replay = await send(account.key, 'last', { markdown: '# Last one' });
    assert.equal(replay.response.status, 200);
    assert.equal(replay.response.headers.get('x-service-replay'), 'true');
  });

  it('should still apply the per-account request rate to replays', async () => {
    const account = await createAccount(service.store, { overrides: { requests_per_min: 2 } });
    assert.equal((await send(account.key, 'rated', { markdown: '# Rated' })).response.status, 200);
    assert.equal((await send(account.key, 'rated', { markdown: '# Rated' })).response.status, 200);
    const limited = await send(account.key, 'rated', { markdown: '# Rated' });
    assert.equal(limited.response.status, 429);
    assert.equal(JSON.parse(Buffer.from(limited.bytes).toString()).code, 'rate_limited');
  });

  it('should keep keys apart between accounts', async () => {
    const one = await createAccount(service.store);
    const two = await createAccount(service.store);
    assert.equal((await send(one.key, 'shared-name', { markdown: '# One' })).response.status, 200);
    const other = await send(two.key, 'shared-name', { markdown: '# Two' });
    assert.equal(other.response.status, 200);
    assert.equal(other.response.headers.get('x-service-replay'), null);
  });

  it('should share one namespace between the keys of an account', async () => {
    const account = await createAccount(service.store);
    const second = await service.store.createApiKey(account.id, 'second');
    assert.equal((await send(account.key, 'team', { markdown: '# Team' })).response.status, 200);
    const replay = await send(second.key, 'team', { markdown: '# Team' });
    assert.equal(replay.response.headers.get('x-service-replay'), 'true');
    const report = (await (await usage(service, account.key)).json()) as { keys: { id: string; credits: number }[] };
    assert.deepEqual(
      report.keys.map((key) => [key.id, key.credits]),
      [[account.keyId, 1]],
    );
  });
});
