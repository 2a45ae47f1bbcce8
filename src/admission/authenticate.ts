import { noteFacts } from '../observability/request-facts.js';
import { accountBlocked, emailUnverified, unauthorized } from '../service-error.js';
import type { Principal, Store } from '../store/store.js';

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

/** docs/api.md "Authentication": a live bearer key (401 otherwise), then a usable account (403). */
export async function authenticate(store: Store, authorization: string | undefined): Promise<Principal> {
  const presented = BEARER.exec(authorization ?? '')?.[1];
  const principal = presented === undefined ? undefined : await store.authenticate(presented);
  if (!principal) throw unauthorized();
  noteFacts({ account: principal.account.id });
  if (principal.account.blocked) throw accountBlocked();
  if (!principal.account.emailVerified) throw emailUnverified();
  return principal;
}
