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
import type { LeaseHolder } from '../store/leases.js';
import { describeLocation, storeOptionsFromEnv, StoreSettingError, type StoreLocation } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { RenderPool } from '../workers/pool.js';
import { databaseLocation, openDatabase } from './admin-store.js';
import { CliError } from './cli-error.js';

export interface ServiceParts extends CoreOptions {
  config: Deployment;
  /** The database as the logs name it (a URL without its password). */
  database: string;
  holder: LeaseHolder;
}

export async function openServiceParts(dbFlag: string | undefined, log: Log): Promise<ServiceParts> {
  const deployment = deploymentFromEnv(process.env);
  const location = databaseLocation(dbFlag);
  const storeOptions = settingsOf(() => storeOptionsFromEnv(process.env));
  const store = await openDatabase(location, {
    ...storeOptions,
    onIdleError: (error) => log({ event: 'database_connection_lost', error: error.message }),
  });
  let pool: RenderPool | undefined;
  try {
    pool = new RenderPool({
      size: deployment.workers,
      queueLimit: deployment.queueLimit,
      memoryMb: deployment.workerMemoryMb,
      net: deployment.net,
      log,
    });
    return assemble(store, pool, deployment, location, storeOptions.holder, log);
  } catch (error) {
    await closeOpened({ store, pool });
    throw error;
  }
}

/**
 * Closes what a start that failed had opened: its workers are threads and its database
 * connections sockets, either of which would keep the process alive, listening nowhere, after
 * the error was printed.
 */
export async function closeOpened(parts: { store: Store; pool?: RenderPool | undefined }): Promise<void> {
  await parts.pool?.close(0).catch(() => {});
  await parts.store.close().catch(() => {});
}

function assemble(store: Store, pool: RenderPool, deployment: Deployment, location: StoreLocation, holder: LeaseHolder, log: Log): ServiceParts {
  if (deployment.net.allowLoopback) {
    log({
      event: 'warning',
      warning:
        'QUIRE_NET_ALLOW_LOOPBACK=1: outbound requests may reach loopback addresses (127.0.0.0/8). FOR TESTS ONLY — never run a public service like this.',
    });
  }
  const uploader = deployment.upload ? networkUploader(deployment.net, log, deployment.uploadTimeoutMs) : undefined;
  // Creates the master key file on first start, before anything could store a certificate.
  const sealer = sealerFromEnv(process.env, { store, location, clock: systemClock, log });
  return {
    store,
    clock: systemClock,
    pool,
    config: deployment,
    log,
    sealer,
    ...(uploader && { uploader }),
    database: describeLocation(location),
    holder,
  };
}

function settingsOf<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof StoreSettingError ? new CliError(error.message) : error;
  }
}
