/** GET /v1/usage: the report, its periods, and reading without opening one. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PLANS } from '../../../src/limits/plans.js';
import { createAccount, errorBody, ManualClock, periodCount, render, startService, usage, type TestService } from '../../support/service-harness.js';

interface Report {
  plan: string;
  period_start: string;
  period_end: string;
  credits_included: number;
  credits_granted: number;
  credits_used: number;
  limits: Record<string, number>;
  keys: { id: string; name: string | null; credits: number }[];
}

describe('usage report', () => {
  let service: TestService;
  const clock = new ManualClock(Date.parse('2025-01-15T12:00:00Z'));

  before(async () => {
    service = await startService({ clock });
  });
  after(() => service.close());

  async function report(key: string, query = ''): Promise<{ body: Report; periodId: string | null }> {
    const response = await usage(service, key, query);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    return { body: (await response.json()) as Report, periodId: response.headers.get('x-service-period-id') };
  }

  async function renderOk(key: string): Promise<void> {
    const response = await render(service, key, '# Counted');
    assert.equal(response.status, 200);
    await response.arrayBuffer();
  }

  it('should report the scheduled period before the first render without opening it', async () => {
    clock.set(Date.parse('2025-01-15T12:00:00Z'));
    const account = await createAccount(service.store, { plan: 'starter', overrides: { requests_per_min: 50 } });
    const { body, periodId } = await report(account.key);
    assert.deepEqual(Object.keys(body).sort(), ['credits_granted', 'credits_included', 'credits_used', 'keys', 'limits', 'period_end', 'period_start', 'plan']);
    assert.deepEqual(body, {
      plan: 'starter',
      period_start: '2025-01-15T00:00:00.000Z',
      period_end: '2025-02-15T00:00:00.000Z',
      credits_included: 1000,
      credits_granted: 0,
      credits_used: 0,
      limits: {
        markdown_kb: 2048,
        resources_mb: 6,
        pages_max: 200,
        timeout_s: 60,
        concurrency: 100,
        requests_per_min: 50,
        previews_per_hour: PLANS.starter.limits.previews_per_hour,
      },
      keys: [],
    });
    assert.equal(periodId, null);
    assert.equal(periodCount(service, account.id), 0);
  });

  it('should count charged documents per key, naming a revoked key null', async () => {
    clock.set(Date.parse('2025-01-20T09:00:00Z'));
    const account = await createAccount(service.store);
    const second = await service.store.createApiKey(account.id, 'ci');
    await renderOk(account.key);
    await renderOk(second.key);
    await renderOk(second.key);
    await service.store.revokeApiKey(account.keyId);
    const { body, periodId } = await report(second.key);
    assert.equal(body.credits_used, 3);
    assert.deepEqual(body.keys, [
      { id: account.keyId, name: null, credits: 1 },
      { id: second.id, name: 'ci', credits: 2 },
    ]);
    assert.match(periodId ?? '', /^[1-9]\d*$/);
    assert.deepEqual((await report(second.key, `?period=${periodId}`)).body, body);
  });

  it('should open the next scheduled period only when it is used, keeping the earlier one readable', async () => {
    clock.set(Date.parse('2025-01-31T10:00:00Z'));
    const account = await createAccount(service.store);
    await renderOk(account.key);
    const january = await report(account.key);
    assert.equal(january.body.period_end, '2025-02-28T00:00:00.000Z');

    clock.set(Date.parse('2025-03-05T00:00:00Z'));
    const march = await report(account.key);
    assert.equal(march.periodId, null);
    assert.deepEqual([march.body.period_start, march.body.period_end], ['2025-02-28T00:00:00.000Z', '2025-03-31T00:00:00.000Z']);
    assert.deepEqual([march.body.credits_used, march.body.keys], [0, []]);
    assert.equal(periodCount(service, account.id), 1);

    await renderOk(account.key);
    assert.equal(periodCount(service, account.id), 2);
    const earlier = await report(account.key, `?period=${january.periodId}`);
    assert.equal(earlier.body.credits_used, 1);
    assert.equal(earlier.body.period_start, '2025-01-31T00:00:00.000Z');
  });

  it('should start a new period on a plan change, carrying unused documents over as a grant', async () => {
    clock.set(Date.parse('2025-03-01T08:00:00Z'));
    const account = await createAccount(service.store, { plan: 'starter' });
    for (let i = 0; i < 3; i += 1) await renderOk(account.key);
    const before = await report(account.key);

    clock.set(Date.parse('2025-03-10T14:30:00Z'));
    await service.store.changePlan(account.id, 'pro');
    const after = await report(account.key);
    assert.equal(after.body.plan, 'pro');
    assert.equal(after.body.period_start, '2025-03-10T14:30:00.000Z');
    assert.equal(after.body.period_end, '2025-04-10T00:00:00.000Z');
    assert.equal(after.body.credits_included, 10_000);
    assert.equal(after.body.credits_granted, 997);
    assert.equal(after.body.credits_used, 0);
    assert.equal(after.body.limits.pages_max, 1000);

    const earlier = await report(account.key, `?period=${before.periodId}`);
    assert.equal(earlier.body.plan, 'starter');
    assert.equal(earlier.body.period_end, '2025-03-10T14:30:00.000Z');
    assert.equal(earlier.body.credits_included, 1000);
    assert.equal(earlier.body.credits_used, 3);
    assert.equal(earlier.body.limits.pages_max, 200, 'an earlier period shows its plan with current values');
  });

  it('should add granted documents to the current period', async () => {
    const account = await createAccount(service.store, { overrides: { documents: 2 } });
    await service.store.grantDocuments(account.id, 5);
    const { body } = await report(account.key);
    assert.deepEqual([body.credits_included, body.credits_granted], [2, 5]);
  });

  it('should apply a documents override to the open period at once', async () => {
    const account = await createAccount(service.store);
    await renderOk(account.key);
    await service.store.updateAccount(account.id, { overrides: { documents: 1 } });
    assert.equal((await report(account.key)).body.credits_included, 1);
    assert.equal((await render(service, account.key, '# One too many')).status, 402);
  });

  it('should refuse a malformed period with 400 invalid_request', async () => {
    const account = await createAccount(service.store);
    for (const period of ['', '0', '01', 'abc', '-1', '1.5', '12345678901234567890']) {
      const response = await usage(service, account.key, `?period=${encodeURIComponent(period)}`);
      assert.equal(response.status, 400, period);
      const error = await errorBody(response);
      assert.equal(error.code, 'invalid_request');
      assert.equal(error.reason, 'invalid_period');
    }
  });

  it('should answer unknown and foreign periods with the same 404', async () => {
    const owner = await createAccount(service.store);
    const stranger = await createAccount(service.store);
    await renderOk(owner.key);
    const { periodId } = await report(owner.key);
    const foreign = await usage(service, stranger.key, `?period=${periodId}`);
    const unknown = await usage(service, stranger.key, '?period=987654321');
    const beyondSqlite = await usage(service, stranger.key, '?period=9999999999999999999');
    const bodies = [];
    for (const response of [foreign, unknown, beyondSqlite]) {
      assert.equal(response.status, 404);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      bodies.push(await response.text());
    }
    assert.equal(new Set(bodies).size, 1);
    assert.equal(JSON.parse(bodies[0]!).code, 'not_found');
  });
});
