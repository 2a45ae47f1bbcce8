/**
 * The request log line and X-Request-Id, over the real service's socket: a client's well-formed
 * X-Request-Id names its request in the answer and the log, anything else is replaced by a new
 * UUID; the line's fields are the ones docs/operations.md lists (`route`, the route's pattern,
 * never the path as sent).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createAccount, render, startService, type TestAccount, type TestService } from '../../support/service-harness.js';

const OPERATIONS_MD = fileURLToPath(new URL('../../../../docs/operations.md', import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The fields docs/operations.md gives a log line: the code spans of its "Logs" item. */
function documentedFields(): Set<string> {
  const text = readFileSync(OPERATIONS_MD, 'utf8');
  const start = text.indexOf('- **Logs:**');
  assert.ok(start >= 0, 'docs/operations.md has a Logs item');
  const item = text.slice(start, text.indexOf('\n- ', start + 1));
  return new Set([...item.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!));
}

describe('request ids and request log lines', () => {
  let service: TestService;
  let account: TestAccount;

  before(async () => {
    service = await startService({ deployment: { workers: 1 } });
    account = await createAccount(service.store);
  });
  after(() => service.close());

  /** The one `request` line logged with this id. */
  function lineOf(id: string): Record<string, unknown> {
    const lines = service.logs.filter((line) => line.event === 'request' && line.request_id === id);
    assert.equal(lines.length, 1, `one request line for ${id}`);
    return lines[0]!;
  }

  it("should keep a client's well-formed X-Request-Id: answered and logged as sent", async () => {
    const sent = ['trace-01.span:7_x', 'a', 'A'.repeat(128), '0af7651916cd43dd8448eb211c80319c', 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6'];
    for (const id of sent) {
      const response = await render(service, account.key, '# Traced', { 'X-Request-Id': id });
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      assert.equal(response.headers.get('x-request-id'), id);
      assert.equal(lineOf(id).status, 200);
    }
    // Refusals and other operations keep it too.
    const refused = await fetch(`${service.url}/v1/usage`, { headers: { 'X-Request-Id': 'no-key-42' } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('x-request-id'), 'no-key-42');
    assert.equal(lineOf('no-key-42').code, 'unauthorized');
  });

  it('should name the request with a new UUID when the X-Request-Id sent is malformed, or none is sent', async () => {
    const malformed = ['A'.repeat(129), 'has space', 'slash/ed', 'comma,ed', 'semi;colon', 'quote"d', 'é', '{"json":1}', '%0a'];
    const answered: string[] = [];
    for (const id of [...malformed, undefined]) {
      const response = await fetch(`${service.url}/v1/usage`, {
        headers: { Authorization: `Bearer ${account.key}`, ...(id !== undefined && { 'X-Request-Id': id }) },
      });
      assert.equal(response.status, 200, String(id));
      await response.arrayBuffer();
      const given = response.headers.get('x-request-id')!;
      assert.match(given, UUID, `replaces ${id}`);
      assert.equal(lineOf(given).status, 200);
      answered.push(given);
    }
    assert.equal(new Set(answered).size, answered.length, 'a new id each time');
    for (const id of malformed) assert.equal(JSON.stringify(service.logs).includes(id), false, `${id} is not logged`);
  });

  it('should replace an X-Request-Id sent empty or twice', async () => {
    const ids = await Promise.all([rawRequest(service.url, ['X-Request-Id', '']), rawRequest(service.url, ['X-Request-Id', 'one', 'X-Request-Id', 'two'])]);
    for (const id of ids) {
      assert.match(id, UUID);
      assert.equal(lineOf(id).status, 200);
    }
  });

  it('should log the route, never the path as sent, with exactly the fields docs/operations.md lists', async () => {
    const documented = documentedFields();
    assert.ok(documented.has('route'), 'the docs name route');
    assert.equal(documented.has('path'), false, 'the docs name no path field');

    const rendered = await render(service, account.key, '# Fields', { 'X-Request-Id': 'fields-render' });
    await rendered.arrayBuffer();
    const report = await fetch(`${service.url}/v1/usage`, {
      headers: { Authorization: `Bearer ${account.key}`, 'X-Request-Id': 'fields-usage' },
    });
    await report.arrayBuffer();
    const missing = await fetch(`${service.url}/v1/nothing/here?secret=1`, { headers: { 'X-Request-Id': 'fields-missing' } });
    await missing.arrayBuffer();
    assert.equal(missing.status, 404);

    const renderLine = lineOf('fields-render');
    assert.deepEqual(
      [renderLine.method, renderLine.route, renderLine.status, renderLine.account, renderLine.code],
      ['POST', '/v1/render', 200, account.id, null],
    );
    assert.equal(renderLine.pages, 1);
    assert.deepEqual(Object.keys(renderLine.timings as object), ['queue', 'setup', 'render', 'serialize', 'total']);
    assert.deepEqual([lineOf('fields-usage').route, lineOf('fields-usage').method], ['/v1/usage', 'GET']);
    assert.deepEqual([lineOf('fields-missing').route, lineOf('fields-missing').code], ['unmatched', 'not_found']);

    for (const line of service.logs.filter((entry) => entry.event === 'request')) {
      assert.equal('path' in line, false, 'no path field');
      for (const field of Object.keys(line)) assert.ok(documented.has(field), `the log field ${field} is in docs/operations.md`);
    }
    assert.equal(JSON.stringify(service.logs).includes('secret=1'), false);
    assert.equal(JSON.stringify(service.logs).includes('/v1/nothing'), false);
  });
});

/** GET /v1/openapi.json with raw header pairs (so a header can be sent twice); the X-Request-Id answered. */
function rawRequest(base: string, headers: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = new URL('/v1/openapi.json', base);
    const request = httpRequest(url, { method: 'GET', headers: [...headers, 'Host', url.host] }, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.headers['x-request-id'])));
    });
    request.on('error', reject);
    request.end();
  });
}
