import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createAccount, errorBody, render, reservations, startService } from './harness.js';

describe('graceful shutdown', () => {
  it('should let a render finish within the grace period', async () => {
    const service = await startService({ standIn: true });
    try {
      const account = await createAccount(service.store);
      const gate = path.join(service.dir, 'gate');
      const inFlight = render(service, account.key, `gate:${gate}\n# Finishing`);
      while (reservations(service, account.id).length === 0) await new Promise((r) => setTimeout(r, 5));
      const stopping = service.shutdown(60_000);
      writeFileSync(gate, '');
      const response = await inFlight;
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      await stopping;
      assert.deepEqual(
        reservations(service, account.id).map((row) => row.state),
        ['charged'],
      );
      await assert.rejects(fetch(`${service.url}/v1/usage`));
    } finally {
      await service.close();
    }
  });

  it('should answer renders still running after the grace period 503 render_unavailable and return their documents', async () => {
    const service = await startService({ standIn: true });
    try {
      const account = await createAccount(service.store);
      const inFlight = render(service, account.key, `gate:${path.join(service.dir, 'never')}\n# Stuck`);
      while (reservations(service, account.id).length === 0) await new Promise((r) => setTimeout(r, 5));
      const stopping = service.shutdown(0);
      const response = await inFlight;
      assert.equal(response.status, 503);
      assert.equal((await errorBody(response)).code, 'render_unavailable');
      await stopping;
      assert.deepEqual(reservations(service, account.id), [{ state: 'returned', error_code: 'render_unavailable', pages: null }]);
    } finally {
      await service.close();
    }
  });
});
