import { STATUS_CODES } from 'node:http';
import { toServiceError, type ServiceError } from '../service-error.js';
import type { Log } from '../log.js';
import { noteFacts } from '../observability/request-facts.js';

/**
 * The one place an error becomes a response: the API error body for a ServiceError; a store
 * failure, or a charge refused because this instance's lease was lost, is 503
 * `quota_unavailable`; anything else a bare 500 `internal_error`. Details of the
 * last two go to the log, never to the client.
 */
export function errorResponse(error: unknown, log: Log): Response {
  const { status, headers, body } = errorParts(answeredError(error, log));
  return new Response(body, { status, headers });
}

/**
 * The same answer as HTTP/1.1 bytes, for a refusal written on the socket itself — where Node's
 * parser refused the request before any response object exists. The connection closes after it.
 */
export function rawErrorResponse(error: ServiceError): string {
  const { status, headers, body } = errorParts(error);
  const lines = Object.entries({ ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' });
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
}

/** Status, headers and JSON body of a refusal; `Cache-Control: no-store` here too, as some are written outside the app. */
function errorParts(error: ServiceError): { status: number; headers: Record<string, string>; body: string } {
  return {
    status: error.status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...error.headers },
    body: JSON.stringify(errorBody(error)),
  };
}

/** The ServiceError `error` is answered with, an unexpected one logged; its code goes to the request's log line. */
export function answeredError(error: unknown, log: Log): ServiceError {
  const known = toServiceError(error);
  if (known !== error) log({ event: 'unexpected_error', error: describe(error) });
  noteFacts({ code: known.code });
  return known;
}

/** docs/api.md "Errors". */
export function errorBody(error: ServiceError): { code: string; error: string } & ServiceError['details'] {
  return { code: error.code, error: error.message, ...error.details };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
