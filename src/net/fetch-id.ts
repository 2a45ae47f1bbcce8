/**
 * The public identity of one render's remote resource loads: a random id, new for every render,
 * sent with each request as `X-Service-Fetch-Id` and returned to the client in the same header.
 * It names no account and no internal token; only the service log ties it to the account, so an
 * operator can answer a site's abuse report.
 */
import { randomBytes } from 'node:crypto';

export function newFetchId(): string {
  return `fetch_${randomBytes(12).toString('hex')}`;
}
