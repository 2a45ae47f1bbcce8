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
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Milliseconds from the first byte sent to the last byte received. */
  ms: number;
}

export function rawRequest(port: number, request: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const body = request.body ?? Buffer.alloc(0);
  const lines = (request.headers ?? []).map((line) => (typeof line === 'string' ? Buffer.from(line, 'latin1') : line));
  const has = (name: string) => lines.some((line) => line.toString('latin1').toLowerCase().startsWith(`${name}:`));
  const head = [
    Buffer.from(`${request.method ?? 'POST'} ${request.path ?? '/v1/render'} HTTP/1.1`, 'latin1'),
    ...(has('host') ? [] : [Buffer.from('Host: 127.0.0.1')]),
    ...(has('connection') ? [] : [Buffer.from('Connection: close')]),
    ...(has('content-length') || has('transfer-encoding') ? [] : [Buffer.from(`Content-Length: ${body.length}`)]),
    ...lines,
  ];
  const bytes = Buffer.concat([...head.flatMap((line) => [line, Buffer.from('\r\n')]), Buffer.from('\r\n'), body]);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no complete answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may answer and close before it has read the whole body (413 before reading).
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if ((error.code === 'EPIPE' || error.code === 'ECONNRESET') && chunks.length > 0) return;
      reject(error);
    });
    socket.on('close', () => {
      if (chunks.length === 0) return reject(new Error('the connection closed without an answer'));
      try {
        resolve({ ...parseResponse(Buffer.concat(chunks)), ms: performance.now() - started });
      } catch (error) {
        reject(error);
      }
    });
    // Written, not ended: a half-closed connection may be dropped by the server before it answers.
    void writeUntilAnswered(socket, bytes, () => chunks.length > 0);
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
