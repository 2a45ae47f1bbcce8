/**
 * What one request's log line reports, gathered as the request runs: who asked (the account id,
 * never a key), how it ended, and for renders the pages and phase timings. Kept in an
 * AsyncLocalStorage so the code that learns a fact need not carry the request around.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestFacts {
  account?: string;
  /** The API error code of a refusal. */
  code?: string;
  /** The MCP tool called. */
  tool?: string;
  pages?: number;
  /** Milliseconds per phase, as in Server-Timing. */
  timings?: Record<string, number>;
}

const current = new AsyncLocalStorage<RequestFacts>();

export function gatherFacts<T>(facts: RequestFacts, run: () => T): T {
  return current.run(facts, run);
}

/** Adds to the facts of the request running now; outside a request it does nothing. */
export function noteFacts(facts: RequestFacts): void {
  const gathered = current.getStore();
  if (gathered) Object.assign(gathered, facts);
}

/** Pages and phase timings of a render answer, from its X-Service-Pages and Server-Timing headers. */
export function renderFacts(headers: Headers): RequestFacts {
  const pages = headers.get('x-service-pages');
  const timing = headers.get('server-timing');
  return {
    ...(pages !== null && { pages: Number(pages) }),
    ...(timing !== null && {
      timings: Object.fromEntries([...timing.matchAll(/([a-z]+);dur=([\d.]+)/g)].map(([, name, ms]) => [name!, Number(ms)])),
    }),
  };
}
