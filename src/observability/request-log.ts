/**
 * One log line per API request: request id (also sent as X-Request-Id), method, route, status,
 * account id, error code, pages and phase timings. Only these facts are logged — never headers,
 * bodies, query strings or URLs a caller sent — so keys, credentials, upload URLs and documents
 * cannot reach the log; the one value a caller chooses is its own X-Request-Id, and only when it
 * is a short token (request-id.ts). MCP tool calls over stdio get a line each of the same facts.
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Log } from '../log.js';
import { gatherFacts, renderFacts, type RequestFacts } from './request-facts.js';
import { requestId } from './request-id.js';

/** A tool call over MCP stdio, which has no HTTP request: logged alike, as a `tool_call` line. */
export async function logToolCall<T>(log: Log, call: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  const facts: RequestFacts = {};
  try {
    return await gatherFacts(facts, call);
  } finally {
    log({
      event: 'tool_call',
      tool: facts.tool ?? null,
      account: facts.account ?? null,
      code: facts.code ?? null,
      ...(facts.pages !== undefined && { pages: facts.pages }),
      ...(facts.timings && { timings: facts.timings }),
      duration_ms: Number((performance.now() - startedAt).toFixed(1)),
    });
  }
}

export function requestLog(log: Log): MiddlewareHandler {
  return async (c, next) => {
    const id = requestId(c.req.header('x-request-id'));
    const startedAt = performance.now();
    const facts: RequestFacts = {};
    await gatherFacts(facts, next);
    c.res.headers.set('X-Request-Id', id);
    const route = routePath(c, -1);
    const { pages, timings } = facts.pages === undefined ? renderFacts(c.res.headers) : facts;
    log({
      event: 'request',
      request_id: id,
      method: c.req.method,
      // The route's pattern, never the path as sent; no route matched when the last one is a middleware's wildcard (`/v1/*`).
      route: route.endsWith('*') ? 'unmatched' : route,
      status: c.res.status,
      account: facts.account ?? null,
      code: facts.code ?? null,
      ...(facts.tool && { tool: facts.tool }),
      ...(pages !== undefined && { pages }),
      ...(timings && { timings }),
      duration_ms: Number((performance.now() - startedAt).toFixed(1)),
    });
  };
}
