/** Runs the app on a port, and shuts it down gracefully: stop accepting, let renders finish or answer them. */
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { RenderPool } from '../workers/pool.js';
import { answerMalformedRequest } from './malformed-request.js';

export interface RunningServer {
  port: number;
  /** Stops accepting connections; in-flight renders get `graceMs` to finish, then 503 `render_unavailable`. */
  close(graceMs: number): Promise<void>;
}

/** Time for answers to in-flight requests to reach their clients once the pool has settled them. */
const FLUSH_MS = 5_000;
const SWEEP_MS = 50;

/** Listens once the workers have loaded the engine, so the first requests are not refused as queue_full. */
export async function startServer(app: Hono, pool: RenderPool, options: { port: number; hostname: string }): Promise<RunningServer> {
  await pool.started();
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname: options.hostname }) as Server;
    server.on('clientError', answerMalformedRequest);
    server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      // `Expect: 100-continue` (curl sends it for bodies over 1 MB): the interim answer goes out
      // only when the app starts reading the body, so a request refused without it (a declared
      // length over the ceiling, a bad key) is answered before the client sends a byte of it.
      request.once('resume', () => response.headersSent || response.writeContinue());
      server.emit('request', request, response);
    });
    server.once('error', reject);
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ port, close: (graceMs) => shutdown(server, pool, graceMs) });
    });
  });
}

async function shutdown(server: Server, pool: RenderPool, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  await pool.close(graceMs);
  // Keep-alive connections become idle once their answer is sent; close them as they do.
  const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
  server.closeIdleConnections();
  const flushed = await Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), FLUSH_MS).unref()),
  ]);
  clearInterval(sweep);
  if (!flushed) server.closeAllConnections();
  await closed;
}
