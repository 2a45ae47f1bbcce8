/**
 * What one deployment decides beyond the plans: its ceilings, worker pool and shutdown grace.
 * Read from the environment by `quire serve`; tests build it directly.
 */
import { availableParallelism } from 'node:os';
import { planBodyBytes } from '../limits/body-ceiling.js';
import { MIB, PLANS } from '../limits/plans.js';
import { DEFAULT_NET_SETTINGS, netSettingsFromEnv, type NetSettings } from '../net/net-settings.js';

export interface Deployment {
  /** Request bodies above this are refused (413) before they are read. */
  maxBodyBytes: number;
  /** Service page ceiling; refusals by it carry `limit.plan: null`. */
  maxPages: number;
  /** Render-time ceiling in seconds, when held lower than some plans. */
  maxRenderSeconds: number;
  workers: number;
  /** Renders waiting for a worker beyond which requests get 503 `queue_full`. */
  queueLimit: number;
  /** Old-generation heap of one worker; a render past it fails as `OutOfMemory`. */
  workerMemoryMb: number;
  /** How long SIGTERM waits for in-flight renders before answering them 503. */
  shutdownGraceMs: number;
  /**
   * The resource-rendering backend that seal metadata (reason, location, contact) needs
   * (docs/api.md "Seals"); off, plain seals still work and metadata answers 503.
   */
  resourceBackend: boolean;
  /** Upload delivery; off (no outbound address for storage) answers upload requests 503 `render_unavailable`. */
  upload: boolean;
  /** How long one upload's PUT may take, connection included (docs/api.md: 60 s unless the operator says). */
  uploadTimeoutMs: number;
  /** The address policy and time bounds of outbound requests. */
  net: NetSettings;
}

const largest = Object.values(PLANS).map((plan) => plan.limits);

/** docs/api.md "Limits": the largest plan's body ceiling (limits/body-ceiling.ts). */
export const DERIVED_BODY_CEILING = Math.max(...largest.map(planBodyBytes));

/** The renderer has no page bound of its own: the ceiling is twice the largest plan's pages. */
export const DERIVED_PAGE_CEILING = 2 * Math.max(...largest.map((l) => l.pages_max));

export function defaultDeployment(): Deployment {
  const workers = availableParallelism();
  return {
    maxBodyBytes: DERIVED_BODY_CEILING,
    maxPages: DERIVED_PAGE_CEILING,
    maxRenderSeconds: Number.POSITIVE_INFINITY,
    workers,
    queueLimit: Math.max(8, 4 * workers),
    workerMemoryMb: 1024,
    shutdownGraceMs: 30_000,
    resourceBackend: true,
    upload: true,
    uploadTimeoutMs: 60_000,
    net: { ...DEFAULT_NET_SETTINGS },
  };
}

/**
 * The defaults, with any of QUIRE_MAX_BODY_MB, QUIRE_MAX_PAGES, QUIRE_MAX_RENDER_S, QUIRE_WORKERS,
 * QUIRE_QUEUE_LIMIT, QUIRE_WORKER_MEMORY_MB, QUIRE_SHUTDOWN_GRACE_S, QUIRE_UPLOAD (on/off), QUIRE_UPLOAD_TIMEOUT_S and the
 * QUIRE_NET_* settings set.
 */
export function deploymentFromEnv(env: NodeJS.ProcessEnv): Deployment {
  const base = defaultDeployment();
  /** The variable's positive number times `unit`, or `fallback` (already in the internal unit) when unset. */
  const read = (name: string, fallback: number, unit = 1): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
    return value * unit;
  };
  const workers = Math.floor(read('QUIRE_WORKERS', base.workers));
  return {
    maxBodyBytes: Math.floor(read('QUIRE_MAX_BODY_MB', base.maxBodyBytes, MIB)),
    maxPages: Math.floor(read('QUIRE_MAX_PAGES', base.maxPages)),
    maxRenderSeconds: read('QUIRE_MAX_RENDER_S', base.maxRenderSeconds),
    workers,
    queueLimit: Math.floor(read('QUIRE_QUEUE_LIMIT', Math.max(8, 4 * workers))),
    workerMemoryMb: Math.floor(read('QUIRE_WORKER_MEMORY_MB', base.workerMemoryMb)),
    shutdownGraceMs: read('QUIRE_SHUTDOWN_GRACE_S', base.shutdownGraceMs, 1000),
    resourceBackend: switchOn(env, 'QUIRE_RESOURCE_BACKEND', base.resourceBackend),
    upload: switchOn(env, 'QUIRE_UPLOAD', base.upload),
    uploadTimeoutMs: read('QUIRE_UPLOAD_TIMEOUT_S', base.uploadTimeoutMs, 1000),
    net: netSettingsFromEnv(env),
  };
}

/** `on` or `off` (unset: `fallback`). */
function switchOn(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'on' && raw !== 'off') throw new Error(`${name} must be "on" or "off"`);
  return raw === 'on';
}
