/**
 * The HTTP service: two operations under /v1, their OpenAPI document, the MCP endpoint, the web
 * editor and — unless they have a port of their own — the operator paths. Every response
 * `Cache-Control: no-store` but the editor's hashed assets (and `Connection: close` while the
 * service drains), one log line per API request, unknown paths 404 and wrong methods 405 with
 * `Allow`, every error shaped in errorResponse.
 */
import { Hono } from 'hono';
import { addEditorRoutes, EDITOR_ASSETS } from '../editor/editor-routes.js';
import type { BodyCeiling } from '../limits/body-ceiling.js';
import type { Log } from '../log.js';
import { mcpEndpoint } from '../mcp/http-endpoint.js';
import { addOperatorRoutes, type OperatorDeps } from '../observability/operator-routes.js';
import { requestLog } from '../observability/request-log.js';
import { openApiJson } from '../openapi/openapi-document.js';
import { methodNotAllowed, notFound } from '../service-error.js';
import { readUsage } from '../usage/read-usage.js';
import type { RenderPool } from '../workers/pool.js';
import { errorResponse } from './error-response.js';
import { createServiceCore, renderHandler, type CoreOptions } from './service-core.js';

export interface AppOptions extends CoreOptions {
  /** False when the operator paths are served on their own port (createOperatorApp). */
  operatorPaths?: boolean;
}

export function createApp(options: AppOptions): Hono {
  const core = createServiceCore(options);
  const { log } = core;
  /** Checked before anything else; each account's body is then read against its own plan's ceiling. */
  const deploymentCeiling: BodyCeiling = { bytes: options.config.maxBodyBytes, plan: null };

  const app = noStoreApp(log, options.pool);
  app.use('/v1/*', requestLog(log));
  app.use('/mcp', requestLog(log));

  app.post('/v1/render', renderHandler(core, deploymentCeiling, 'api'));
  app.all('/v1/render', () => errorResponse(methodNotAllowed(['POST']), log));

  // Hono answers HEAD with the GET route, body dropped.
  app.get('/v1/usage', (c) => readUsage(core.deps.store, { authorization: c.req.header('authorization'), period: c.req.query('period') }));
  app.all('/v1/usage', () => errorResponse(methodNotAllowed(['GET', 'HEAD']), log));

  app.get('/v1/openapi.json', () => new Response(openApiJson(), { headers: { 'Content-Type': 'application/json' } }));
  app.all('/v1/openapi.json', () => errorResponse(methodNotAllowed(['GET', 'HEAD']), log));

  app.post('/mcp', mcpEndpoint(core, deploymentCeiling));
  app.all('/mcp', () => errorResponse(methodNotAllowed(['POST']), log));

  addEditorRoutes(app, core, deploymentCeiling);

  if (options.operatorPaths !== false) addOperatorRoutes(app, { ...core, store: options.store });
  return app;
}

/** The operator paths alone, for a port of their own; pass the API app's metrics so both count alike. */
export function createOperatorApp(deps: OperatorDeps): Hono {
  const app = noStoreApp(deps.log, deps.pool);
  addOperatorRoutes(app, deps);
  return app;
}

function noStoreApp(log: Log, pool: RenderPool): Hono {
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    // The editor's content-hashed assets are cached for a year; everything else is no-store.
    if (!(c.req.path.startsWith(EDITOR_ASSETS) && c.res.ok)) c.res.headers.set('Cache-Control', 'no-store');
    // While the service drains, no connection is kept for another request: the next one goes to another instance.
    if (pool.isClosing()) c.res.headers.set('Connection', 'close');
  });
  app.onError((error) => errorResponse(error, log));
  app.notFound(() => errorResponse(notFound(), log));
  return app;
}
