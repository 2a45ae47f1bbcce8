/**
 * The id naming one request in the log and in its answer's X-Request-Id: the client's own
 * X-Request-Id when it is well formed, so a caller (or a proxy in front) can follow its request
 * through the service's log, else a new UUID. Well formed is 1–128 characters of letters, digits
 * and `.`, `_`, `:`, `-` — nothing that could break a log line or a header.
 */
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request that sent `sent` as its X-Request-Id (undefined when it sent none). */
export function requestId(sent: string | undefined): string {
  return sent !== undefined && REQUEST_ID_PATTERN.test(sent) ? sent : randomUUID();
}
