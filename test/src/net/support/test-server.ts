/**
 * HTTP and HTTPS servers on loopback for tests, recording what reached them: connections, and
 * each request's method, target, raw headers (in order, as sent) and body.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface Hit {
  method: string;
  /** The request target exactly as sent (path and query). */
  target: string;
  /** Header names and values in the order they arrived. */
  rawHeaders: string[];
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type Route = (request: IncomingMessage, response: ServerResponse, hit: Hit) => void;

export interface TestServer {
  port: number;
  hits: Hit[];
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

/** Routes by path (query left out); unknown paths answer 404. Pass `tls` for HTTPS. */
export async function startTestServer(routes: Record<string, Route>, tls?: { key: string; cert: string }): Promise<TestServer> {
  const hits: Hit[] = [];
  const sockets = new Set<Socket>();
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const hit: Hit = {
        method: request.method!,
        target: request.url!,
        rawHeaders: request.rawHeaders,
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      hits.push(hit);
      const route = routes[new URL(request.url!, 'http://x').pathname];
      if (route) route(request, response, hit);
      else response.writeHead(404).end();
    });
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  const state = { connections: 0 };
  server.on('connection', (socket: Socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
