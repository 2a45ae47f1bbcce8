/**
 * exchange() where connect() fails synchronously, inside a network namespace made by the test:
 * every such failure ends the exchange as a network failure naming only the errno, and none
 * escapes the promise (an uncaught 'error' ends the process that made the request).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FailingExchanges } from './support/failing-exchanges.js';
import { FAILING_ADDRESSES, freshNetnsRefusal, runInFreshNetns } from './support/fresh-netns.js';

describe('an outbound exchange whose connection fails at once', { skip: freshNetnsRefusal() }, () => {
  it('should reject as a network failure with the errno, for both schemes, and throw nothing outside its promise', async () => {
    const driver = new URL('./support/failing-exchanges.js', import.meta.url);
    const seen = await runInFreshNetns<FailingExchanges>(driver, 'failingExchanges');
    const expected = Object.keys(FAILING_ADDRESSES).flatMap((errno) =>
      ['GET http', 'PUT https'].map((target) => ({ target: `${target} ${errno}`, ended: `ExchangeError network: the connection failed (${errno})` })),
    );
    assert.deepEqual(seen, { outcomes: expected, escaped: [] });
  });
});
