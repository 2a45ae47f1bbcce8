/**
 * A plan that loads no remote resources (all four load them today, so the test switches one off
 * in its own process): strict documents linking one are refused before anything is spent,
 * lenient ones render with placeholders.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PLANS, type Plan } from '../../../src/limits/plans.js';
import { createAccount, errorBody, render, reservations, startService, type TestService } from '../../support/service-harness.js';

describe('remote resources on a plan without them', () => {
  let service: TestService;
  before(async () => {
    (PLANS.free as Plan).remoteResources = false;
    service = await startService();
  });
  after(async () => {
    (PLANS.free as Plan).remoteResources = true;
    await service.close();
  });

  it('should refuse a strict document linking a remote image with 403 plan_required, reserving nothing', async () => {
    const account = await createAccount(service.store, { plan: 'free' });
    const response = await render(service, account.key, { markdown: '# Hi\n\n<img src="https://img.example.com/a.png">' });
    assert.equal(response.status, 403);
    const error = await errorBody(response);
    assert.deepEqual([error.code, error.reason], ['plan_required', 'remote_resources']);
    assert.deepEqual(reservations(service, account.id), []);
  });

  it('should render a lenient document with placeholders, and strict documents without remote images', async () => {
    const account = await createAccount(service.store, { plan: 'free' });
    const lenient = await render(service, account.key, { markdown: '# Hi\n\n![a](https://img.example.com/a.png)', resources: 'lenient' });
    assert.equal(lenient.status, 200);
    assert.equal(lenient.headers.get('x-service-resources-failed'), '1/1');
    const plain = await render(service, account.key, { markdown: '# Hi\n\n[a link](https://example.com/) and `![code](https://img.example.com/a.png)`' });
    assert.equal(plain.status, 200);
  });

  it('should still load on the plans that do', async () => {
    const account = await createAccount(service.store, { plan: 'starter' });
    const response = await render(service, account.key, { markdown: '![a](https://img.example.com/a.png)' });
    assert.equal(response.status, 422, 'past the gate: this in-process service makes no outbound request, so the load fails');
    assert.equal((await errorBody(response)).code, 'resource_fetch_failed');
  });
});
