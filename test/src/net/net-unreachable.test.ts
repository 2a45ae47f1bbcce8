/**
 * The service where every outbound connection fails at once: it runs inside a network namespace
 * made by the test (only loopback up), so connect() to the public addresses its DNS stub answers
 * fails synchronously (ENETUNREACH; EACCES behind a prohibit route). Images become placeholders
 * or a 422, an upload a 424, and the service goes on answering.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { freshNetnsRefusal, runInFreshNetns } from './support/fresh-netns.js';
import { pdftotext } from '../../support/pdf-tools.js';
import type { Answer, UnreachableService } from '../../support/service-fixtures/unreachable-service.js';

describe('the service when every outbound connection fails at once', { skip: freshNetnsRefusal() }, () => {
  let seen: UnreachableService;
  /** The answer, failing with what the service logged when there was none. */
  const answered = (answer: Answer | string): Answer => {
    assert.ok(typeof answer !== 'string', `${answer}\nservice log:\n${seen.log}`);
    return answer;
  };

  before(async () => {
    seen = await runInFreshNetns<UnreachableService>(
      new URL('../../support/service-fixtures/unreachable-service.js', import.meta.url),
      'observeUnreachableService',
    );
  });

  it('should draw a placeholder for each image in lenient mode and count them failed', async () => {
    const lenient = answered(seen.lenient);
    assert.equal(lenient.status, 200, JSON.stringify(lenient.body));
    assert.equal(lenient.headers['x-service-resources-failed'], '3/3');
    assert.equal(lenient.headers['x-service-resources-failed-ids'], '1,2,3');
    const text = await pdftotext(Buffer.from(lenient.body as string, 'base64'));
    for (const alt of ['https unrouted', 'http unrouted', 'https prohibited']) assert.ok(text.includes(alt), `"${alt}" in:\n${text}`);
  });

  it('should answer 422 resource_fetch_failed for the first image in strict mode', () => {
    const strict = answered(seen.strict);
    assert.equal(strict.status, 422);
    assert.deepEqual(strict.body, {
      code: 'resource_fetch_failed',
      error: (strict.body as { error: string }).error,
      reason: 'network_error',
      resource_id: '1',
    });
  });

  it('should answer 424 upload_failed with status null when the storage cannot be reached', () => {
    const upload = answered(seen.upload);
    assert.equal(upload.status, 424);
    assert.deepEqual([(upload.body as { code: string }).code, (upload.body as { status: unknown }).status], ['upload_failed', null]);
  });

  it('should stay up: /healthz answers and a later render is delivered, by the same process', () => {
    assert.equal(answered(seen.healthz).status, 200);
    const after = answered(seen.after);
    assert.equal(after.status, 200);
    assert.equal((after.body as { pages: number }).pages, 1);
    assert.equal(seen.exited, null, seen.log);
  });

  it('should charge the delivered documents and return the failed ones', () => {
    assert.deepEqual(seen.reservations, [
      { state: 'charged', error_code: null, pages: 1 },
      { state: 'returned', error_code: 'resource_fetch_failed', pages: null },
      { state: 'returned', error_code: 'upload_failed', pages: null },
      { state: 'charged', error_code: null, pages: 1 },
    ]);
  });
});
