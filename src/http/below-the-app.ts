/**
 * Requests refused before the app sees them get the SPEC error body and `Cache-Control:
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
 *   allows, so the request is answered as if it were absent — 417 is no SPEC status;
 * - Node's per-connection request limit (an empty 503) is never set.
 *
 * All of these are 400 `invalid_request` (the SPEC's status for the code), the reason naming the
 * problem.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestError, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import type { Log } from '../log.js';
import { invalidRequest, type ServiceError } from '../service-error.js';
import { errorResponse, rawErrorResponse } from './error-response.js';

/** Registers the answers Node would otherwise give itself. */
export function answerBelowTheApp(server: Server): void {
  server.on('clientError', answerClientError);
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => refuseOnSocket(socket, notAPath()));
  server.on('checkExpectation', (request: IncomingMessage, response) => server.emit('request', request, response));
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

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Nothing can be said on a connection the client dropped, or into an answer already under way.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  refuseOnSocket(socket, clientErrorRefusal(error.code));
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

function refuseOnSocket(socket: Duplex, refusal: ServiceError): void {
  socket.end(rawErrorResponse(refusal));
}
