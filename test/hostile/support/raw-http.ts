/**
 * HTTP/1.1 written byte for byte on a socket: hostile requests carry what `fetch` and
 * `http.request` refuse to send (control characters and invalid UTF-8 in headers, broken framing).
 */
import { connect, type Socket } from 'node:net';

export interface RawRequest {
  method?: string;
  path?: string;
  /** Header lines as sent, each without its CRLF; Host, Connection and Content-Length are added unless present. */
  headers?: (string | Buffer)[];
  body?: Buffer;
  /** False: no Host header at all. */
  host?: false;
  /** Default 1.1. */
  version?: '1.0' | '1.1';
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Milliseconds from the first byte sent to the last byte received. */
  ms: number;
}

/** Bodies past this are sent as curl sends them: `Expect: 100-continue`, then the body once asked. */
const EXPECT_CONTINUE_BYTES = 1024 * 1024;
/** How long a client waits for `100 Continue` before sending the body anyway (curl: 1 s). */
const CONTINUE_WAIT_MS = 1_000;
const INTERIM = /^HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n/;

export function rawRequest(port: number, request: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const body = request.body ?? Buffer.alloc(0);
  const lines = (request.headers ?? []).map((line) => (typeof line === 'string' ? Buffer.from(line, 'latin1') : line));
  const has = (name: string) => lines.some((line) => line.toString('latin1').toLowerCase().startsWith(`${name}:`));
  const expectContinue = body.length > EXPECT_CONTINUE_BYTES && !has('expect');
  const head = [
    Buffer.from(`${request.method ?? 'POST'} ${request.path ?? '/v1/render'} HTTP/${request.version ?? '1.1'}`, 'latin1'),
    ...(has('host') || request.host === false ? [] : [Buffer.from('Host: 127.0.0.1')]),
    ...(has('connection') ? [] : [Buffer.from('Connection: close')]),
    ...(has('content-length') || has('transfer-encoding') ? [] : [Buffer.from(`Content-Length: ${body.length}`)]),
    ...(expectContinue ? [Buffer.from('Expect: 100-continue')] : []),
    ...lines,
  ];
  const headBytes = Buffer.concat([...head.flatMap((line) => [line, Buffer.from('\r\n')]), Buffer.from('\r\n')]);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    /** Bytes before the final answer's status line, searched for interim 1xx answers to drop. */
    let before = Buffer.alloc(0);
    /** The final answer has begun. */
    const answered = () => chunks.length > 0;
    let interim: () => void = () => undefined;
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no complete answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => {
      if (answered()) return void chunks.push(chunk);
      before = Buffer.concat([before, chunk]);
      for (let continued = INTERIM.exec(before.toString('latin1')); continued; continued = INTERIM.exec(before.toString('latin1'))) {
        before = before.subarray(continued[0].length);
        interim();
      }
      // A final answer's head (or what cannot be an interim one) starts the answer proper.
      if (before.length >= 12 && !/^HTTP\/1\.[01] 1/.test(before.toString('latin1', 0, 12))) {
        chunks.push(before);
        before = Buffer.alloc(0);
      }
    });
    // The server may answer and close before it has read the whole body (413 before reading).
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if ((error.code === 'EPIPE' || error.code === 'ECONNRESET') && answered()) return;
      reject(error);
    });
    socket.on('close', () => {
      if (before.length > 0) chunks.push(before);
      if (!answered()) return reject(new Error('the connection closed without an answer'));
      try {
        resolve({ ...parseResponse(Buffer.concat(chunks)), ms: performance.now() - started });
      } catch (error) {
        reject(error);
      }
    });
    socket.write(headBytes);
    const asked = expectContinue
      ? new Promise<void>((resume) => {
          interim = resume;
          setTimeout(resume, CONTINUE_WAIT_MS).unref();
        })
      : Promise.resolve();
    // Written, not ended: a half-closed connection may be dropped by the server before it answers.
    void asked.then(() => writeUntilAnswered(socket, body, answered));
  });
}

const WRITE_CHUNK = 256 * 1024;

/**
 * Writes in pieces, as a client that watches for an early answer does: once the server has
 * refused (413 before reading the body) nothing more is sent, so the answer is read rather than
 * lost to a write into a connection the server is closing.
 */
async function writeUntilAnswered(socket: Socket, bytes: Buffer, answered: () => boolean): Promise<void> {
  for (let at = 0; at < bytes.length && !answered() && !socket.destroyed; at += WRITE_CHUNK) {
    if (socket.write(bytes.subarray(at, at + WRITE_CHUNK))) continue;
    await new Promise<void>((resolve) => {
      const done = () => {
        socket.off('drain', done).off('close', done);
        resolve();
      };
      socket.on('drain', done).on('close', done);
    });
  }
}

function parseResponse(data: Buffer): Omit<RawResponse, 'ms'> {
  const split = data.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`an incomplete answer: ${data.subarray(0, 200).toString('latin1')}`);
  const [statusLine, ...headerLines] = data.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(split + 4);
  const body = headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : rest.subarray(0, Number(headers['content-length'] ?? rest.length));
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) throw new Error('a chunked answer ended early');
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}
