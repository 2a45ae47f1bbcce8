import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createAccount, errorBody, render, startService, usage, type TestAccount, type TestService } from '../../support/service-harness.js';

describe('HTTP basics', () => {
  let service: TestService;
  let account: TestAccount;

  before(async () => {
    service = await startService({ deployment: { maxBodyBytes: 64 * 1024 } });
    account = await createAccount(service.store);
  });
  after(() => service.close());

  it('should answer an unknown path 404 not_found with Cache-Control: no-store', async () => {
    const response = await fetch(`${service.url}/v1/nothing-here`);
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal((await errorBody(response)).code, 'not_found');
  });

  it('should answer a wrong method 405 method_not_allowed with Allow', async () => {
    const onRender = await fetch(`${service.url}/v1/render`);
    assert.equal(onRender.status, 405);
    assert.equal(onRender.headers.get('allow'), 'POST');
    assert.equal(onRender.headers.get('cache-control'), 'no-store');
    assert.equal((await errorBody(onRender)).code, 'method_not_allowed');

    const onUsage = await fetch(`${service.url}/v1/usage`, { method: 'DELETE' });
    assert.equal(onUsage.status, 405);
    assert.equal(onUsage.headers.get('allow'), 'GET, HEAD');
    assert.equal((await errorBody(onUsage)).code, 'method_not_allowed');
  });

  it('should answer HEAD on /v1/usage like GET, without a body', async () => {
    const response = await fetch(`${service.url}/v1/usage`, { method: 'HEAD', headers: { Authorization: `Bearer ${account.key}` } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(await response.text(), '');
  });

  it('should answer 401 unauthorized with WWW-Authenticate: Bearer for a missing, malformed or unknown key', async () => {
    const cases: Record<string, string>[] = [{}, { Authorization: 'Basic abc' }, { Authorization: 'Bearer quire_unknown' }, { Authorization: 'Bearer' }];
    for (const headers of cases) {
      for (const response of [
        await fetch(`${service.url}/v1/render`, { method: 'POST', headers, body: '# Hi' }),
        await fetch(`${service.url}/v1/usage`, { headers }),
      ]) {
        assert.equal(response.status, 401);
        assert.equal(response.headers.get('www-authenticate'), 'Bearer');
        assert.equal(response.headers.get('cache-control'), 'no-store');
        assert.equal((await errorBody(response)).code, 'unauthorized');
      }
    }
  });

  it('should answer 401 for a revoked key', async () => {
    const other = await createAccount(service.store);
    await service.store.revokeApiKey(other.keyId);
    const response = await usage(service, other.key);
    assert.equal(response.status, 401);
    assert.equal((await errorBody(response)).code, 'unauthorized');
  });

  it('should answer 403 account_blocked for a blocked account, on every retry', async () => {
    const blocked = await createAccount(service.store);
    await service.store.updateAccount(blocked.id, { blocked: true });
    for (let i = 0; i < 2; i += 1) {
      const response = await render(service, blocked.key, '# Hi');
      assert.equal(response.status, 403);
      assert.equal((await errorBody(response)).code, 'account_blocked');
    }
  });

  it('should answer 403 email_unverified for an account whose email is not verified', async () => {
    const unverified = await createAccount(service.store, { emailVerified: false });
    const response = await render(service, unverified.key, '# Hi');
    assert.equal(response.status, 403);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal((await errorBody(response)).code, 'email_unverified');
  });

  it('should refuse a declared body over the ceiling with 413 before reading it', async () => {
    // Only the headers are sent: an answer proves the service did not wait for the body.
    const port = Number(new URL(service.url).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /v1/render HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/markdown\r\n' +
            `Authorization: Bearer ${account.key}\r\nContent-Length: 104857600\r\n\r\n`,
        );
      });
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /cache-control: no-store/i);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    assert.equal(body.code, 'payload_too_large');
    assert.equal(body.reason, 'body_limit');
    assert.deepEqual(body.limit, { name: 'body_kb', value: 64, plan: null });
  });

  it('should answer Expect: 100-continue over the ceiling 413 without asking for the body', async () => {
    const exchange = await expectContinue(Number(new URL(service.url).port), account.key, 'x'.repeat(100 * 1024));
    assert.equal(exchange.bodySent, false, 'the body was never asked for');
    assert.match(exchange.first, /^HTTP\/1\.1 413 /);
    assert.match(exchange.first, /"reason":"body_limit"/);
  });

  it('should send 100 Continue when it reads the body of an Expect: 100-continue request, then render it', async () => {
    const exchange = await expectContinue(Number(new URL(service.url).port), account.key, '# Continued\n\nAfter the interim answer.');
    assert.match(exchange.first, /^HTTP\/1\.1 100 Continue\r\n\r\n/);
    assert.equal(exchange.bodySent, true);
    assert.match(exchange.rest, /^HTTP\/1\.1 200 /m);
    assert.match(exchange.rest, /%PDF-/);
  });

  it('should cut off a streamed body without a declared length at the ceiling', async () => {
    const chunk = new Uint8Array(16 * 1024).fill(0x61);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${service.url}/v1/render`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'text/markdown' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 413);
    const body = await errorBody(response);
    assert.equal(body.code, 'payload_too_large');
    assert.equal(body.reason, 'body_limit');
  });

  it('should never show a stack trace, SQL or a path in an error', async () => {
    const responses = [
      await render(service, account.key, '{"markdown": ', { 'Content-Type': 'application/json' }),
      await fetch(`${service.url}/v1/usage?period=99999999999999999`, { headers: { Authorization: `Bearer ${account.key}` } }),
      await fetch(`${service.url}/v1/usage?period=9999999999999999999`, { headers: { Authorization: `Bearer ${account.key}` } }),
    ];
    for (const response of responses) {
      const text = await response.text();
      assert.doesNotMatch(text, /\bat .+:\d+:\d+|SELECT|sqlite|\/work\/|node_modules|dist\//i);
    }
  });
});

/**
 * A client that sends `Expect: 100-continue` and waits, as curl does: the body goes only after
 * `100 Continue`. `first` is the first answer received, `rest` what came after the body.
 */
function expectContinue(port: number, key: string, markdown: string): Promise<{ first: string; bodySent: boolean; rest: string }> {
  const body = Buffer.from(markdown);
  return new Promise((resolve, reject) => {
    let first = '';
    let rest = '';
    let bodySent = false;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /v1/render HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/markdown\r\nConnection: close\r\n` +
          `Authorization: Bearer ${key}\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (bodySent) rest += chunk.toString('latin1');
      else first += chunk.toString('latin1');
      if (!bodySent && /^HTTP\/1\.1 100 Continue\r\n\r\n/.test(first)) {
        bodySent = true;
        rest = first.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
        socket.write(body);
      }
    });
    socket.on('end', () => resolve({ first, bodySent, rest }));
    socket.on('error', reject);
  });
}
