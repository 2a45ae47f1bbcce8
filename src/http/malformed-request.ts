/**
 * Requests Node's HTTP parser refuses before the app sees them — control characters or invalid
 * bytes in a header, broken framing, an unknown method, headers past the parser's size — are
 * answered with the SPEC error body and `Cache-Control: no-store`, like every other response,
 * instead of Node's bare `400 Bad Request`.
 */
import type { Duplex } from 'node:stream';
import { invalidRequest } from '../service-error.js';

export function answerMalformedRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? invalidRequest('header_limit', 'The request headers are too large.')
      : invalidRequest('malformed_request', 'The request is not well-formed HTTP/1.1.');
  const body = JSON.stringify({ code: refusal.code, error: refusal.message, ...refusal.details });
  socket.end(
    `HTTP/1.1 ${refusal.status} Bad Request\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
