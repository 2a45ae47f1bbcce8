import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createAccount, errorBody, render, reservations, startService, type TestService } from '../../support/service-harness.js';

describe('usage storage unavailable', () => {
  let service: TestService;

  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  it('should answer 503 quota_unavailable and count nothing while the database cannot be written', async () => {
    const account = await createAccount(service.store);
    const other = new Database(service.dbFile);
    other.exec('BEGIN EXCLUSIVE');
    try {
      for (const headers of [{}, { 'Idempotency-Key': 'locked' }] as Record<string, string>[]) {
        const response = await render(service, account.key, '# Locked out', headers);
        assert.equal(response.status, 503);
        const error = await errorBody(response);
        assert.equal(error.code, 'quota_unavailable');
        assert.doesNotMatch(JSON.stringify(error), /SQLITE|BUSY|locked/i);
      }
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    assert.deepEqual(reservations(service, account.id), []);
    const response = await render(service, account.key, '# Locked out', { 'Idempotency-Key': 'locked' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-service-replay'), null);
  });
});
