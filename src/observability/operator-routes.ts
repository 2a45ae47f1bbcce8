/**
 * The operator's paths: /metrics (Prometheus text), /healthz (the process answers) and /readyz
 * (the database answers and a render worker is ready; 503 from the first moment of a drain,
 * `workers: "stopping"`, while the renders in flight finish). No API key is needed and nothing
 * about any account is shown; they may be served on a port of their own (QUIRE_OPERATOR_PORT).
 */
import type { Hono } from 'hono';
import { errorResponse } from '../http/error-response.js';
import type { Log } from '../log.js';
import { methodNotAllowed } from '../service-error.js';
import type { Store } from '../store/store.js';
import type { RenderPool } from '../workers/pool.js';
import type { ServiceMetrics } from './metrics.js';

export interface OperatorDeps {
  store: Store;
  pool: RenderPool;
  metrics: ServiceMetrics;
  log: Log;
}

export const OPERATOR_PATHS = ['/metrics', '/healthz', '/readyz'] as const;

export function addOperatorRoutes(app: Hono, deps: OperatorDeps): void {
  app.get('/metrics', async () => {
    const { body, contentType } = await deps.metrics.exposition();
    return new Response(body, { headers: { 'Content-Type': contentType } });
  });
  app.get('/healthz', () => Response.json({ status: 'ok' }));
  app.get('/readyz', async () => {
    const database = await deps.store.secret('fingerprint').then(
      () => 'ok',
      () => 'unavailable',
    );
    const { ready, closing } = deps.pool.stats();
    // The pool closes as a drain begins: not ready from that moment, not once the drain is over.
    const workers = closing ? 'stopping' : ready > 0 ? 'ok' : 'starting';
    const isReady = database === 'ok' && workers === 'ok';
    return Response.json({ status: isReady ? 'ready' : 'not_ready', database, workers }, { status: isReady ? 200 : 503 });
  });
  for (const path of OPERATOR_PATHS) app.all(path, () => errorResponse(methodNotAllowed(['GET', 'HEAD']), deps.log));
}
