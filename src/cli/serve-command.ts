/**
 * `quire serve [--port N] [--host H] [--db PATH]`: the HTTP service, until SIGTERM or SIGINT.
 * With QUIRE_OPERATOR_PORT the operator paths (/metrics, /healthz, /readyz) are served on that
 * port (QUIRE_OPERATOR_HOST, default 127.0.0.1) and not on the API's.
 */
import { createApp, createOperatorApp } from '../http/app.js';
import { startServer, type RunningServer } from '../http/server.js';
import { stderrLog, type Log } from '../log.js';
import { ServiceMetrics } from '../observability/metrics.js';
import { IDEMPOTENCY_LIFETIME_MS } from '../render/idempotency.js';
import { keepLeases, type LeaseKeeper } from '../store/lease-keeper.js';
import { CliError } from './cli-error.js';
import { parseFlags } from './parse-flags.js';
import { SERVE_USAGE } from './usage.js';
import { closeOpened, openServiceParts, type ServiceParts } from './service-parts.js';

const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;

export async function serveCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(args, { port: { type: 'string' }, host: { type: 'string' }, db: { type: 'string' } }, SERVE_USAGE);
  if (positionals.length > 0) throw new CliError(`unexpected argument "${positionals[0]}" (see quire serve --help)`);
  const port = portNumber(values.port ?? (process.env.PORT || '8080'));
  const hostname = values.host ?? (process.env.HOST || '0.0.0.0');
  const operatorPort = process.env.QUIRE_OPERATOR_PORT ? portNumber(process.env.QUIRE_OPERATOR_PORT) : undefined;
  const log = stderrLog;

  const parts = await openServiceParts(values.db, log);
  const { store, config: deployment } = parts;
  const { server, operator, leases } = await listen(parts, { port, hostname, operatorPort }, log);

  const maintenance = setInterval(() => {
    store.maintain(IDEMPOTENCY_LIFETIME_MS).catch((error: Error) => log({ event: 'maintenance_failed', error: error.message }));
  }, MAINTENANCE_INTERVAL_MS).unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log({ event: 'stopping', signal });
    clearInterval(maintenance);
    await server.close(deployment.shutdownGraceMs);
    await operator?.close(0);
    await leases.stop();
    await store.close();
    log({ event: 'stopped' });
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/**
 * Recovers expired work, keeps this instance's leases and listens. A refusal on the way (a port
 * taken, the database gone) closes everything opened so far — workers, connections, timers —
 * before it is thrown: any of them would keep the process running, listening nowhere.
 */
async function listen(
  parts: ServiceParts,
  settings: { port: number; hostname: string; operatorPort: number | undefined },
  log: Log,
): Promise<{ server: RunningServer; operator: RunningServer | undefined; leases: LeaseKeeper }> {
  const { store, pool, config: deployment } = parts;
  let leases: LeaseKeeper | undefined;
  let server: RunningServer | undefined;
  try {
    // Work of stopped instances (this one's last run among them) whose leases have expired.
    const recovered = await store.recoverExpired();
    leases = keepLeases(store, parts.holder, log);
    const metrics = new ServiceMetrics(pool);
    const app = createApp({ ...parts, metrics, operatorPaths: settings.operatorPort === undefined });
    // With the operator paths on the API port, it stays open while draining so /readyz can say 503.
    const listenWhileDraining = settings.operatorPort === undefined;
    server = await startServer(app, pool, { port: settings.port, hostname: settings.hostname, log, listenWhileDraining });
    let operator: RunningServer | undefined;
    if (settings.operatorPort !== undefined) {
      const operatorHost = process.env.QUIRE_OPERATOR_HOST || '127.0.0.1';
      // Closed only once the API port has drained: its /readyz answers 503 all along.
      operator = await startServer(createOperatorApp({ store, pool, metrics, log }), pool, { port: settings.operatorPort, hostname: operatorHost, log });
      log({ event: 'operator_listening', host: operatorHost, port: operator.port });
    }
    log({
      event: 'listening',
      host: settings.hostname,
      port: server.port,
      db: parts.database,
      workers: deployment.workers,
      upload: deployment.upload,
      recovered,
    });
    return { server, operator, leases };
  } catch (error) {
    await server?.close(0);
    await leases?.stop();
    await closeOpened(parts);
    throw error;
  }
}

function portNumber(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliError('the port must be a whole number from 0 to 65535');
  return port;
}
