/**
 * Requests refused before the app sees them get the API error body and `Cache-Control:
 * no-store`, like every other response, never Node's bare status lines. The places where Node's
 * HTTP server (node:_http_server) or the adapter that makes fetch Requests of its requests would
 * answer by themselves, each taken over here:
 *
 * - the parser refuses the request — control characters or invalid bytes in a header, broken
 *   framing, an unknown method, headers past the parser's size (Node: 431) — or it does not
 *   arrive within headersTimeout / requestTimeout (Node: 408): the 'clientError' event;
 * - an HTTP/1.1 request without Host (Node: an empty 400): Node's check is off and the service
 *   refuses it; HTTP/1.0 may leave Host out (load balancers' health checks do);
 * - a request target that is not a path, such as `OPTIONS *` (the adapter: an empty 400) or a
 *   CONNECT (Node: the connection dropped without an answer);
 * - an `Expect` other than 100-continue (Node: an empty 417): ignored, as RFC 9110 §10.1.1
 *   allows, so the request is answered as if it were absent — 417 is no API status;
 * - Node's per-connection request limit (an empty 503) is never set.
 *
 * All of these are 400 `invalid_request` (the API's status for the code), the reason naming the
 * problem.
 *
 * And where Node would close the connection under a client still sending — an answer given
 * before the request body has all arrived (413 on a declared length or a body cut off at the
 * ceiling, 401 before the body is read, a refusal by the parser): Node closes at once, the bytes
 * still arriving make the kernel reset the connection, and a client busy writing its body loses
 * the answer with it (RFC 9112 §9.6). Such an answer says `Connection: close` and is followed by
 * a lingering close instead: the write side is shut, and what the client still sends is read
 * and discarded until it has all arrived or the client closes — within LINGER_BYTES and
 * LINGER_MS, past which the connection is cut, so that a client that never stops sending holds
 * no more than that.
 */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { RequestError, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import type { Log } from '../log.js';
import { MIB } from '../limits/plans.js';
import { invalidRequest, type ServiceError } from '../service-error.js';
import { errorResponse, rawErrorResponse } from './error-response.js';

/**
 * What a lingering close reads at most: enough for a client's socket buffers and the writes it
 * has under way when the answer reaches it, far less than a body at the ceiling. A declared
 * length below it ends the linger sooner, when the body has all arrived.
 */
export const LINGER_BYTES = 8 * MIB;
/** How long a lingering close waits at most, from the answer, for the client to finish or close. */
export const LINGER_MS = 5_000;

/** Sockets whose answer says the connection closes. */
const closing = new WeakSet<Duplex>();
/** Sockets whose answer has gone out with the connection closing, each with the check of its bound. */
const lingering = new WeakMap<Duplex, () => void>();

/** Registers the answers Node would otherwise give itself. */
export function answerBelowTheApp(server: Server, log: Log): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, log));
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => refuseOnSocket(socket, notAPath(), log, false));
  server.on('checkExpectation', (request: IncomingMessage, response) => server.emit('request', request, response));
}

/**
 * Node's ServerResponse for the service's server: an answer written while the request body is
 * still arriving says `Connection: close`, the rest of the body is dropped as it comes, and the
 * connection closes by a lingering close.
 */
export function earlyAnswerResponse(log: Log): typeof ServerResponse {
  class EarlyAnswerResponse extends ServerResponse {
    override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, ...rest: unknown[]): this {
      const { req } = this;
      const early = bodyStillArriving(req);
      if (early) this.setHeader('Connection', 'close');
      super.writeHead(statusCode, ...(rest as [string, OutgoingHttpHeaders]));
      if (early) dropRestOfBody(req, log);
      return this;
    }
  }
  return EarlyAnswerResponse as typeof ServerResponse;
}

/** Whether the socket's connection is closing after an answer: a request after it (pipelined) is not served. */
export function closingAfterAnswer(socket: Duplex): boolean {
  return closing.has(socket) || lingering.has(socket);
}

function bodyStillArriving(request: IncomingMessage): boolean {
  const { headers } = request;
  return !request.complete && (headers['transfer-encoding'] !== undefined || Number(headers['content-length']) > 0);
}

/**
 * What the app left of the body, whoever was reading it, is read and dropped, each chunk counted
 * against the linger's bound once it has begun. Read through the request, so that Node's parser
 * goes on reading the socket natively and still sees where the body ends; left to Node, the
 * request would be "dumped" once the answer is written and its chunks never seen.
 */
function dropRestOfBody(request: IncomingMessage, log: Log): void {
  const { socket } = request;
  closing.add(socket);
  request.removeAllListeners('data');
  request.on('data', () => lingering.get(socket)?.());
  request.once('end', () => {
    // The whole body has arrived: nothing is left to reset the connection once the answer is out.
    if (lingering.has(socket)) closeOnceWritten(socket);
  });
  request.resume();
  // Node closes a connection whose answer says close by socket.destroySoon() once the answer is
  // written (and @hono/node-server does when its own drain of an unread body gives up).
  socket.destroySoon = () => (request.complete ? closeOnceWritten(socket) : lingeringClose(socket, log));
}

/**
 * Shuts the write side once the answer is written, then lets what the client still sends be read
 * and discarded — through the request, the parser or the socket, each chunk calling the check
 * registered here — until the body has all arrived or the client closes, or a bound is reached:
 * then the connection is destroyed. Errors on the socket from here on are the client's going away
 * and are swallowed.
 */
function lingeringClose(socket: Duplex, log: Log): () => void {
  const registered = lingering.get(socket);
  if (registered) return registered;
  const net = socket as Socket;
  const startBytes = net.bytesRead;
  const cutOff = (bound: 'bytes' | 'time') => {
    if (socket.destroyed) return;
    log({ event: 'linger_cut_off', bound, bytes: net.bytesRead - startBytes });
    socket.destroy();
  };
  const check = () => {
    if (net.bytesRead - startBytes > LINGER_BYTES) cutOff('bytes');
  };
  lingering.set(socket, check);
  const timer = setTimeout(() => cutOff('time'), LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
  socket.on('error', () => undefined);
  socket.end();
  return check;
}

function closeOnceWritten(socket: Duplex): void {
  if (socket.writableFinished) socket.destroy();
  else {
    socket.once('finish', () => socket.destroy());
    if (!socket.writableEnded) socket.end();
  }
}

type Fetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

/** The app's fetch, an HTTP/1.1 request without Host refused first (RFC 9112 §3.2: 400). */
export function requiringHost(fetch: Fetch, log: Log): Fetch {
  return (request, env) => {
    const { incoming } = env;
    if (incoming.httpVersion !== '1.1' || incoming.headers.host !== undefined) return fetch(request, env);
    return errorResponse(invalidRequest('missing_host', 'An HTTP/1.1 request must carry a Host header.'), log);
  };
}

/** The adapter's error handler: a request line it cannot make a URL of is refused; anything else is the app's error. */
export function adapterRefusal(log: Log): (error: unknown) => Response {
  return (error) => errorResponse(error instanceof RequestError ? notAPath() : error, log);
}

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, log: Log): void {
  // Once answered, the parser refuses every later chunk again: each counts against the linger's bound.
  const check = lingering.get(socket);
  if (check) {
    if (error.code === 'ECONNRESET') socket.destroy();
    else check();
    return;
  }
  // Nothing can be said on a connection the client dropped, or into an answer already under way.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  refuseOnSocket(socket, clientErrorRefusal(error.code), log);
}

function clientErrorRefusal(code: string | undefined): ServiceError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return invalidRequest('header_limit', 'The request headers are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return invalidRequest('request_timeout', 'The request did not arrive in time.');
    default:
      return invalidRequest('malformed_request', 'The request is not well-formed HTTP/1.1.');
  }
}

function notAPath(): ServiceError {
  return invalidRequest('invalid_target', 'The request target must be a path such as /v1/render, under a valid Host.');
}

/**
 * The refusal, then a lingering close. Node's parser, refused, refuses every later chunk as
 * another client error (answerClientError counts them); a CONNECT's socket, which the parser
 * has let go, is read here.
 */
function refuseOnSocket(socket: Duplex, refusal: ServiceError, log: Log, parsed = true): void {
  socket.write(rawErrorResponse(refusal));
  const check = lingeringClose(socket, log);
  if (!parsed) socket.on('data', check).resume();
}
