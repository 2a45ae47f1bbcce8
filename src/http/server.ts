/**
 * Runs the app on a port, and drains it: /readyz answers 503 from the drain's first moment (the
 * pool is closing), renders in flight finish or are answered, then the port closes.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { stderrLog, type Log } from '../log.js';
import type { RenderPool } from '../workers/pool.js';
import { adapterRefusal, answerBelowTheApp, closingAfterAnswer, earlyAnswerResponse, requiringHost } from './below-the-app.js';

export interface RunningServer {
  port: number;
  /**
   * Drains: in-flight renders get `graceMs` to finish, then 503 `render_unavailable`; new ones are
   * refused. The port stops accepting connections at once, or once the renders have settled when
   * `listenWhileDraining`.
   */
  close(graceMs: number): Promise<void>;
}

/** Time for answers to in-flight requests to reach their clients once the pool has settled them. */
const FLUSH_MS = 5_000;
const SWEEP_MS = 50;

/** Node's timers for receiving a request (its headers, the whole of it) and how often they are checked; tests shorten them. */
export type RequestTimers = Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'>;

export interface ServerSettings {
  port: number;
  hostname: string;
  /** Where failures of the HTTP layer itself are logged; stderr by default. */
  log?: Log;
  timers?: RequestTimers;
  /**
   * Keep accepting connections while a drain lets renders finish, so that health checks on this
   * port get /readyz's 503 rather than a refused connection (each answer then says
   * `Connection: close`). For the port that serves the operator paths; a port that does not
   * stops accepting at once, so that a load balancer retries elsewhere on the refused connection.
   */
  listenWhileDraining?: boolean;
}

/** Listens once the workers have loaded the engine, so the first requests are not refused as queue_full. */
export async function startServer(app: Hono, pool: RenderPool, settings: ServerSettings): Promise<RunningServer> {
  await pool.started();
  return new Promise((resolve, reject) => {
    const server = httpServer(app, settings.log ?? stderrLog, settings.timers);
    server.once('error', reject);
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ port, close: (graceMs) => shutdown(server, pool, graceMs, settings.listenWhileDraining ?? false) });
    });
    server.listen(settings.port, settings.hostname);
  });
}

/** Node's HTTP server around the app, every answer — refusals below the app included — the service's own. */
function httpServer(app: Hono, log: Log, timers: RequestTimers = {}): Server {
  // An HTTP/1.0 request without Host is read as one for localhost; HTTP/1.1 needs Host (requiringHost).
  const listener = getRequestListener(requiringHost(app.fetch, log), { hostname: 'localhost', errorHandler: adapterRefusal(log) });
  const server = createServer({ ...timers, requireHostHeader: false, ServerResponse: earlyAnswerResponse(log) }, (request, response) => {
    // A request pipelined behind an answer that closed the connection is never served.
    if (closingAfterAnswer(request.socket)) request.socket.destroy();
    else void listener(request, response);
  });
  answerBelowTheApp(server, log);
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    // `Expect: 100-continue` (curl sends it for bodies over 1 MB): the interim answer goes out
    // only when the app starts reading the body, so a request refused without it (a declared
    // length over the ceiling, a bad key) is answered before the client sends a byte of it.
    request.once('resume', () => response.headersSent || response.writeContinue());
    server.emit('request', request, response);
  });
  return server;
}

async function shutdown(server: Server, pool: RenderPool, graceMs: number, listenWhileDraining: boolean): Promise<void> {
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  let closed = listenWhileDraining ? undefined : stopListening();
  // The drain begins here: the pool closing at once is what /readyz and `Connection: close` read.
  await pool.close(graceMs);
  closed ??= stopListening();
  // Keep-alive connections become idle once their answer is sent; close them as they do.
  const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
  server.closeIdleConnections();
  const flushed = await Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), FLUSH_MS).unref())]);
  clearInterval(sweep);
  if (!flushed) server.closeAllConnections();
  await closed;
}
