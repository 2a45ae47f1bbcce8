/**
 * What every front-end of one service shares — the HTTP API, MCP over HTTP and MCP over stdio:
 * one render flow, the store (counted for the metrics; it holds the per-account rate and
 * concurrency counters every instance shares) and the log. Renders through `renderCounted` are counted in the metrics.
 */
import type { Context } from 'hono';
import type { Clock } from '../clock.js';
import type { Deployment } from '../config/deployment.js';
import { stderrLog, type Log } from '../log.js';
import type { Uploader } from '../net/uploader.js';
import { meteredStore } from '../observability/metered-store.js';
import { ServiceMetrics, type Door } from '../observability/metrics.js';
import { renderDocument, type IncomingRender, type RenderDeps } from '../render/render-flow.js';
import type { Sealer } from '../seal/sealer.js';
import type { ReservedThrough, Store } from '../store/store.js';
import type { RenderPool } from '../workers/pool.js';
import type { BodyCeiling } from '../limits/body-ceiling.js';
import { checkDeclaredLength, readBody } from './body.js';
import { toServiceError } from '../service-error.js';

export interface CoreOptions {
  store: Store;
  clock: Clock;
  pool: RenderPool;
  config: Deployment;
  log?: Log;
  sealer?: Sealer;
  uploader?: Uploader;
  /** Shared with an operator server on its own port; made here when absent. */
  metrics?: ServiceMetrics;
}

export interface ServiceCore {
  deps: RenderDeps;
  metrics: ServiceMetrics;
  pool: RenderPool;
  log: Log;
}

export function createServiceCore(options: CoreOptions): ServiceCore {
  const log = options.log ?? stderrLog;
  const metrics = options.metrics ?? new ServiceMetrics(options.pool);
  const store = meteredStore(options.store, metrics);
  let fingerprintKey: Promise<Buffer> | undefined;
  const deps: RenderDeps = {
    store,
    clock: options.clock,
    pool: options.pool,
    deployment: options.config,
    fingerprintKey: () =>
      (fingerprintKey ??= store.secret('fingerprint').catch((error: unknown) => {
        fingerprintKey = undefined; // read it again next time rather than failing for good
        throw error;
      })),
    log,
    ...(options.sealer && { sealer: options.sealer }),
    ...(options.uploader && { uploader: options.uploader }),
  };
  return { deps, metrics, pool: options.pool, log };
}

/** The render flow, its answer counted by front-end, outcome and code. */
export async function renderCounted(core: ServiceCore, incoming: IncomingRender, frontEnd: Door): Promise<Response> {
  const seconds = () => (performance.now() - incoming.startedAt) / 1000;
  try {
    const response = await renderDocument(core.deps, incoming);
    const outcome = response.headers.get('x-service-replay') === 'true' ? 'replayed' : 'delivered';
    core.metrics.render(frontEnd, outcome, 'none', seconds());
    return response;
  } catch (error) {
    core.metrics.render(frontEnd, 'refused', toServiceError(error).code, seconds());
    throw error;
  }
}

/**
 * POST /v1/render, and the editor's download through the same flow: the deployment's body
 * ceiling checked from the declared length before anything else, then the render counted.
 */
export function renderHandler(core: ServiceCore, deploymentCeiling: BodyCeiling, frontEnd: ReservedThrough): (c: Context) => Promise<Response> {
  return (c) => {
    const startedAt = performance.now();
    checkDeclaredLength(c.req.raw, deploymentCeiling);
    return renderCounted(
      core,
      {
        authorization: c.req.header('authorization'),
        idempotencyKey: c.req.header('idempotency-key'),
        body: async (ceiling) => ({ bytes: await readBody(c.req.raw, ceiling), contentType: c.req.header('content-type') }),
        frontEnd,
        startedAt,
      },
      frontEnd,
    );
  };
}
