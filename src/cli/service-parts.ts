/**
 * What `quire serve` and `quire mcp` both run on: the deployment read from the environment, the
 * database, the render workers, upload delivery and the sealer.
 */
import { systemClock } from '../clock.js';
import { deploymentFromEnv, type Deployment } from '../config/deployment.js';
import type { CoreOptions } from '../http/service-core.js';
import type { Log } from '../log.js';
import { networkUploader } from '../net/network-uploader.js';
import { sealerFromEnv } from '../seal/sealer-from-env.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { RenderPool } from '../workers/pool.js';
import { databasePath } from './admin-store.js';

export interface ServiceParts extends CoreOptions {
  store: SqliteStore;
  config: Deployment;
  dbFile: string;
}

export function openServiceParts(dbFlag: string | undefined, log: Log): ServiceParts {
  const deployment = deploymentFromEnv(process.env);
  const dbFile = databasePath(dbFlag);
  const store = SqliteStore.open(dbFile, systemClock);
  const pool = new RenderPool({
    size: deployment.workers,
    queueLimit: deployment.queueLimit,
    memoryMb: deployment.workerMemoryMb,
    net: deployment.net,
    log,
  });
  if (deployment.net.allowLoopback) {
    log({
      event: 'warning',
      warning: 'QUIRE_NET_ALLOW_LOOPBACK=1: outbound requests may reach loopback addresses (127.0.0.0/8). FOR TESTS ONLY — never run a public service like this.',
    });
  }
  const uploader = deployment.upload ? networkUploader(deployment.net, log) : undefined;
  // Creates the master key file on first start, before anything could store a certificate.
  const sealer = sealerFromEnv(process.env, { store, databaseFile: dbFile, clock: systemClock, log });
  return { store, clock: systemClock, pool, config: deployment, log, sealer, ...(uploader && { uploader }), dbFile };
}
