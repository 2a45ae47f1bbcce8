/** Usage accounting under concurrency: the quota is never overspent and every reservation is settled. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount, render, reservations, startService, usage, type TestService } from '../../support/service-harness.js';

describe('usage accounting under concurrency', () => {
  let service: TestService;

  before(async () => {
    service = await startService({ deployment: { workers: 2, queueLimit: 100 } });
  });
  after(() => service.close());

  it('should never charge more than the quota for 50 parallel renders, and charged + returned = reserved', async () => {
    const quota = 30;
    const account = await createAccount(service.store, { plan: 'pro', overrides: { documents: quota, concurrency: 50 } });
    const second = await service.store.createApiKey(account.id, 'second');
    // Ten of the fifty fail after reservation (a remote image in strict mode) and return their document.
    const bodies = Array.from({ length: 50 }, (_, i) =>
      i % 5 === 0 ? `# Broken ${i}\n\n![x](https://example.com/${i}.png)` : `# Document ${i}\n\nSome text.`,
    );
    const responses = await Promise.all(
      bodies.map(async (body, i) => {
        const response = await render(service, i % 2 ? account.key : second.key, body);
        await response.arrayBuffer();
        return response.status;
      }),
    );

    const count = (status: number) => responses.filter((s) => s === status).length;
    const rows = reservations(service, account.id);
    const charged = rows.filter((row) => row.state === 'charged').length;
    const returned = rows.filter((row) => row.state === 'returned').length;

    assert.equal(count(200) + count(422) + count(402), 50, `unexpected statuses ${responses.join(',')}`);
    assert.ok(charged <= quota, `charged ${charged} > quota ${quota}`);
    assert.equal(charged, count(200));
    assert.equal(returned, count(422));
    assert.equal(charged + returned, rows.length, 'every reservation is settled');
    assert.ok(rows.every((row) => row.state !== 'returned' || row.error_code === 'resource_fetch_failed'));
    // The quota ran out: reservations in flight held the documents the 402s were refused.
    assert.ok(count(402) > 0);
    assert.equal(rows.length, 50 - count(402));

    const report = (await (await usage(service, account.key)).json()) as { credits_used: number; keys: { credits: number }[] };
    assert.equal(report.credits_used, charged);
    assert.equal(
      report.keys.reduce((sum, key) => sum + key.credits, 0),
      charged,
    );
  });
});
