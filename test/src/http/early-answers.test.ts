/**
 * Answers given before the request body has all arrived — 413 on a declared length over the
 * ceiling, a streamed body cut off at the ceiling, 401 before the body is read — reach clients
 * still sending it: the connection is closed by a lingering close (RFC 9112 §9.6), never under
 * the client's writes, and the linger is cut off at its bounds. Raw clients on sockets, as curl
 * or a hand-written client behave: they send their whole body whatever comes back, and read
 * as they go or only once they have sent it all.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { LINGER_BYTES, LINGER_MS } from '../../../src/http/below-the-app.js';
import { KIB, MIB } from '../../../src/limits/plans.js';
import { createAccount, startService, type TestAccount, type TestService } from '../../support/service-harness.js';

const CEILING = MIB;
const CHUNK = 64 * KIB;
const CLIENTS = 40;

interface Upload {
  /** Header lines after the request line, Host included; the body's framing follows from `chunked`. */
  headers: string[];
  /** Bytes of body to send; Infinity for a client that never stops. */
  bytes: number;
  chunked: boolean;
  /** Pause between chunks, in milliseconds. */
  pauseMs: number;
  chunkBytes?: number;
  /** Read only once the whole body is sent (the socket paused until then), as a client that writes, then reads. */
  readAfterSending?: boolean;
}

interface Outcome {
  answer: string;
  /** The first socket error, if any: EPIPE or ECONNRESET once the server has closed. */
  error: string | undefined;
  /** Milliseconds from the headers to the connection's close. */
  closedMs: number;
}

/** One raw client: the headers, then the body in chunks, ignoring any answer until it is all sent or the server closes. */
function upload(port: number, request: Upload): Promise<Outcome> {
  return new Promise((resolve) => {
    // allowHalfOpen: the server's FIN does not stop the writes, as it does not for a client in C.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const started = performance.now();
    const chunks: Buffer[] = [];
    let error: string | undefined;
    if (request.readAfterSending) socket.pause();
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (failure: NodeJS.ErrnoException) => (error ??= failure.code ?? failure.message));
    socket.on('close', () => resolve({ answer: Buffer.concat(chunks).toString('latin1'), error, closedMs: performance.now() - started }));
    // Bounded whatever the server does: no test waits on a client for long.
    const guard = setTimeout(() => socket.destroy(), 30_000);
    socket.once('close', () => clearTimeout(guard));
    const framing = request.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${request.bytes}`;
    socket.write(`POST /v1/render HTTP/1.1\r\n${[...request.headers, framing].join('\r\n')}\r\n\r\n`);
    const size = request.chunkBytes ?? CHUNK;
    const data = Buffer.alloc(size, 0x61);
    const piece = request.chunked ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
    void (async () => {
      for (let sent = 0; sent < request.bytes && socket.writable; sent += size) {
        if (!socket.write(piece)) await new Promise((resume) => socket.once('drain', resume).once('close', resume));
        if (request.pauseMs > 0) await new Promise((resume) => setTimeout(resume, request.pauseMs));
      }
      if (request.chunked && socket.writable) socket.write('0\r\n\r\n');
      socket.resume();
      socket.end();
    })();
  });
}

/** The answer's status, its headers (lower-cased) and its JSON body, read to its Content-Length. */
function parseAnswer(answer: string): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const split = answer.indexOf('\r\n\r\n');
  assert.ok(split > 0, `no complete answer: ${JSON.stringify(answer.slice(0, 80))}`);
  const [statusLine, ...lines] = answer.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length']);
  assert.equal(answer.length - split - 4, length, 'the whole answer was read, and nothing after it');
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(answer.slice(split + 4)) as Record<string, unknown> };
}

describe('answers before the body has arrived', () => {
  let service: TestService;
  let account: TestAccount;
  let port: number;

  before(async () => {
    service = await startService({ deployment: { maxBodyBytes: CEILING } });
    account = await createAccount(service.store);
    port = Number(new URL(service.url).port);
  });
  after(() => service.close());

  const headers = (key = account.key) => ['Host: 127.0.0.1', `Authorization: Bearer ${key}`, 'Content-Type: text/markdown'];

  /** Every client read the whole answer, with `Connection: close`. */
  function assertAllAnswered(outcomes: Outcome[], status: number, code: string): void {
    const unanswered = outcomes.filter((outcome) => !/^HTTP\/1\.1 \d{3} /.test(outcome.answer));
    assert.deepEqual(
      unanswered.map((outcome) => outcome.error),
      [],
      `${unanswered.length} of ${outcomes.length} clients never read the answer`,
    );
    for (const outcome of outcomes) {
      const answer = parseAnswer(outcome.answer);
      assert.equal(answer.status, status);
      assert.equal(answer.headers.connection, 'close');
      assert.equal(answer.body.code, code);
    }
  }

  it(`should have each of ${CLIENTS} clients sending a declared 20 MiB body in chunks read the whole 413`, async () => {
    const outcomes = await Promise.all(
      Array.from({ length: CLIENTS }, () => upload(port, { headers: headers(), bytes: 20 * MIB, chunked: false, pauseMs: 2 })),
    );
    assertAllAnswered(outcomes, 413, 'payload_too_large');
    for (const outcome of outcomes) assert.equal(parseAnswer(outcome.answer).body.reason, 'body_limit');
  });

  it(`should have each of ${CLIENTS} clients streaming a chunked 20 MiB body read the whole 413 when it is cut off at the ceiling`, async () => {
    const outcomes = await Promise.all(Array.from({ length: CLIENTS }, () => upload(port, { headers: headers(), bytes: 20 * MIB, chunked: true, pauseMs: 2 })));
    assertAllAnswered(outcomes, 413, 'payload_too_large');
    for (const outcome of outcomes) assert.deepEqual(parseAnswer(outcome.answer).body.limit, { name: 'body_kb', value: CEILING / KIB, plan: null });
  });

  it(`should have each of ${CLIENTS} clients with an unknown key read the whole 401 while still sending its body`, async () => {
    const outcomes = await Promise.all(
      Array.from({ length: CLIENTS }, () => upload(port, { headers: headers('quire_unknown'), bytes: 20 * MIB, chunked: true, pauseMs: 2 })),
    );
    assertAllAnswered(outcomes, 401, 'unauthorized');
  });

  it(`should have each of ${CLIENTS} clients whose headers the parser refuses read the whole 400 while still sending its body`, async () => {
    const padded = [...headers(), `X-Padding: ${'p'.repeat(70 * KIB)}`];
    const outcomes = await Promise.all(Array.from({ length: CLIENTS }, () => upload(port, { headers: padded, bytes: 20 * MIB, chunked: false, pauseMs: 2 })));
    assertAllAnswered(outcomes, 400, 'invalid_request');
    for (const outcome of outcomes) assert.equal(parseAnswer(outcome.answer).body.reason, 'header_limit');
  });

  it('should hold the answer for clients that read only once they have sent their whole body, when it is within the bound', async () => {
    const bytes = 3 * MIB;
    assert.ok(bytes < LINGER_BYTES);
    for (const chunked of [false, true]) {
      const outcomes = await Promise.all(
        Array.from({ length: CLIENTS / 2 }, () => upload(port, { headers: headers(), bytes, chunked, pauseMs: 1, readAfterSending: true })),
      );
      assertAllAnswered(outcomes, 413, 'payload_too_large');
      // The body has all arrived: the server closes at once, without waiting out its bound.
      for (const outcome of outcomes) assert.ok(outcome.closedMs < LINGER_MS, `closed after ${Math.round(outcome.closedMs)} ms`);
    }
  });

  it('should cut off a client that never stops sending once it has sent the bound in bytes, after it has read the answer', async () => {
    const cutOffs = () => service.logs.filter((line) => line.event === 'linger_cut_off');
    const before = cutOffs().length;
    const outcome = await upload(port, { headers: headers(), bytes: Number.POSITIVE_INFINITY, chunked: true, pauseMs: 0 });
    assertAllAnswered([outcome], 413, 'payload_too_large');
    assert.ok(outcome.closedMs < LINGER_MS, `cut off after ${Math.round(outcome.closedMs)} ms, by bytes rather than time`);
    const logged = cutOffs().slice(before);
    assert.equal(logged.length, 1);
    assert.equal(logged[0]!.bound, 'bytes');
    // One read of the socket past the bound at most.
    assert.ok(Number(logged[0]!.bytes) > LINGER_BYTES && Number(logged[0]!.bytes) <= LINGER_BYTES + CHUNK, String(logged[0]!.bytes));
  });

  it('should cut off a client that trickles its body forever once the bound in time has passed', async () => {
    // A declared 20 MiB at 10 KiB a second: refused at once, and never done.
    const outcome = await upload(port, { headers: headers(), bytes: 20 * MIB, chunked: false, pauseMs: 100, chunkBytes: KIB });
    assertAllAnswered([outcome], 413, 'payload_too_large');
    assert.ok(outcome.closedMs >= LINGER_MS, `closed after ${Math.round(outcome.closedMs)} ms, before the bound`);
    assert.ok(outcome.closedMs < LINGER_MS + 3_000, `closed after ${Math.round(outcome.closedMs)} ms, long past the bound`);
  });
});
