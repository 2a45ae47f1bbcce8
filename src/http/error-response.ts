import { internalError, quotaUnavailable, ServiceError } from '../service-error.js';
import type { Log } from '../log.js';
import { noteFacts } from '../observability/request-facts.js';
import { StoreUnavailableError } from '../store/store.js';

/**
 * The one place an error becomes a response: the SPEC error body for a ServiceError; a store
 * failure is 503 `quota_unavailable`; anything else a bare 500 `internal_error`. Details of the
 * last two go to the log, never to the client.
 */
export function errorResponse(error: unknown, log: Log): Response {
  const known = answeredError(error, log);
  return new Response(JSON.stringify(errorBody(known)), {
    status: known.status,
    headers: { 'Content-Type': 'application/json', ...known.headers },
  });
}

/** The ServiceError `error` is answered with, an unexpected one logged; its code goes to the request's log line. */
export function answeredError(error: unknown, log: Log): ServiceError {
  const known = toServiceError(error);
  if (known !== error) log({ event: 'unexpected_error', error: describe(error) });
  noteFacts({ code: known.code });
  return known;
}

/** SPEC "Error body". */
export function errorBody(error: ServiceError): { code: string; error: string } & ServiceError['details'] {
  return { code: error.code, error: error.message, ...error.details };
}

/** The ServiceError an error is answered with. */
export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof StoreUnavailableError) return quotaUnavailable();
  return internalError();
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
