/**
 * Requests Node's HTTP server, or the adapter in front of the app, would answer by themselves —
 * with a bare status line, no body and no Cache-Control — get the service's JSON error body and
 * `Cache-Control: no-store` like every other response. Each is sent byte for byte on a socket.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { rawRequest, type RawRequest, type RawResponse } from '../../hostile/support/raw-http.js';
import { createAccount, startService, type TestAccount, type TestService } from '../../support/service-harness.js';

/** Node's request timers, shortened so a stalled request is refused within the test. */
const TIMERS = { headersTimeout: 400, requestTimeout: 1_000, connectionsCheckingInterval: 50 };

describe('answers below the app', () => {
  let service: TestService;
  let account: TestAccount;
  let port: number;

  before(async () => {
    service = await startService({ timers: TIMERS });
    account = await createAccount(service.store);
    port = Number(new URL(service.url).port);
  });
  after(() => service.close());

  const send = (request: RawRequest) => rawRequest(port, request, 10_000);

  function assertRefusal(response: RawResponse, reason: string): void {
    assert.equal(response.status, 400, response.body.toString());
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers['content-type'], 'application/json');
    const body = JSON.parse(response.body.toString()) as Record<string, unknown>;
    assert.deepEqual([body.code, body.reason], ['invalid_request', reason]);
    assert.equal(typeof body.error, 'string');
  }

  it('should answer an Expect other than 100-continue as if it were absent, never with a bare 417', async () => {
    const rendered = await send({ headers: ['Expect: x-foo', `Authorization: Bearer ${account.key}`], body: Buffer.from('# Expected') });
    assert.equal(rendered.status, 200);
    assert.equal(rendered.body.subarray(0, 5).toString(), '%PDF-');
    const unknown = await send({ method: 'GET', path: '/nothing', headers: ['Expect: x-foo'] });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers['cache-control'], 'no-store');
    assert.equal(JSON.parse(unknown.body.toString()).code, 'not_found');
  });

  it('should refuse an HTTP/1.1 request without Host with 400 missing_host and the error body', async () => {
    assertRefusal(await send({ method: 'GET', path: '/v1/usage', host: false, headers: [`Authorization: Bearer ${account.key}`] }), 'missing_host');
    // The absolute form names a host, but HTTP/1.1 still requires the header.
    assertRefusal(await send({ method: 'GET', path: `http://127.0.0.1:${port}/v1/usage`, host: false }), 'missing_host');
  });

  it("should serve an HTTP/1.0 request without Host, as load balancers' health checks send", async () => {
    const response = await send({ method: 'GET', path: '/healthz', host: false, version: '1.0' });
    assert.equal(response.status, 200);
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it('should refuse the asterisk request target and CONNECT with 400 invalid_target and the error body', async () => {
    assertRefusal(await send({ method: 'OPTIONS', path: '*' }), 'invalid_target');
    assertRefusal(await send({ method: 'CONNECT', path: 'example.com:443', headers: ['Host: example.com:443'] }), 'invalid_target');
  });

  it("should refuse headers past the parser's size with 400 header_limit, never a bare 431", async () => {
    assertRefusal(await send({ headers: [`X-Padding: ${'p'.repeat(70_000)}`], body: Buffer.from('# x') }), 'header_limit');
  });

  it('should refuse a request the parser cannot read with 400 malformed_request', async () => {
    assertRefusal(await send({ headers: ['NoColonHere'], body: Buffer.from('# x') }), 'malformed_request');
  });

  it('should refuse a request whose headers stop arriving with 400 request_timeout, never a bare 408', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /v1/usage HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    });
    const [head, body] = answer.split('\r\n\r\n');
    assert.match(head!, /^HTTP\/1\.1 400 /);
    assert.match(head!, /\r\nCache-Control: no-store\r\n/i);
    assert.deepEqual(JSON.parse(body!), { code: 'invalid_request', error: 'The request did not arrive in time.', reason: 'request_timeout' });
  });
});
