/**
 * One HTTP(S) request to a checked destination: the socket connects to exactly the checked
 * address (the name is never looked up again), TLS still verifies the certificate against the
 * host name, redirects come back as a status and are never followed, and the connection and
 * the whole exchange each have a bound. No connection is reused.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { Destination } from './destination.js';

export interface ExchangeOptions {
  method: 'GET' | 'PUT';
  headers: Record<string, string>;
  body?: Uint8Array;
  /** Until the connection is established (the TLS handshake included). */
  connectTimeoutMs: number;
  /** Until the exchange is over: the status for a PUT, the last body byte for a GET. */
  timeoutMs: number;
  /** Read the body, failing as `too_large` past this many bytes; absent: the status is all that is wanted. */
  maxBodyBytes?: number;
  signal?: AbortSignal;
  /** For https: the certificates trusted, in place of Node's own list. */
  ca?: readonly string[];
}

export interface ExchangeResult {
  status: number;
  headers: IncomingHttpHeaders;
  /** Present when `maxBodyBytes` was given. */
  body: Uint8Array | undefined;
}

export type ExchangeFailure = 'connect_timeout' | 'timeout' | 'network' | 'too_large' | 'aborted';

/** No answer came: `failure` says why; the message never holds the URL. */
export class ExchangeError extends Error {
  constructor(
    readonly failure: ExchangeFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Node's HTTP and TLS modules, loaded by the first exchange, not with this module: ~11 ms of
 * start-up that a `quire render` whose remote images never resolve (or that shows none) would
 * pay for nothing.
 */
let httpStack: Promise<HttpStack> | undefined;

interface HttpStack {
  http: typeof import('node:http');
  https: typeof import('node:https');
  net: typeof import('node:net');
  tls: typeof import('node:tls');
}

function loadHttpStack(): Promise<HttpStack> {
  return (httpStack ??= Promise.all([import('node:http'), import('node:https'), import('node:net'), import('node:tls')]).then(([http, https, net, tls]) => ({
    http,
    https,
    net,
    tls,
  })));
}

export async function exchange(destination: Destination, options: ExchangeOptions): Promise<ExchangeResult> {
  return exchangeOver(await loadHttpStack(), destination, options);
}

function exchangeOver({ http, https, net, tls }: HttpStack, destination: Destination, options: ExchangeOptions): Promise<ExchangeResult> {
  const { url } = destination;
  const secure = url.protocol === 'https:';
  const defaultPort = secure ? 443 : 80;
  const port = url.port === '' ? defaultPort : Number(url.port);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(wholeTimer);
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
      request.destroy();
    };
    const fail = (failure: ExchangeFailure, message: string) => finish(() => reject(new ExchangeError(failure, message)));
    const onNetworkError = (error: NodeJS.ErrnoException) => fail('network', failedConnection(error));

    // Anything this throws (only for arguments built here) rejects the promise; a failure to
    // connect, however early, arrives as an 'error' event on the socket or the request.
    const request = (secure ? https : http).request({
      protocol: url.protocol,
      host: url.hostname,
      port,
      defaultPort,
      path: `${url.pathname}${url.search}`,
      method: options.method,
      headers: options.headers,
      // No agent: the connection is this request's own, never reused (`Connection: close`). Its
      // socket gets an 'error' handler as it is made: the request attaches one only a tick later,
      // and an 'error' with no handler is thrown as an uncaught exception.
      createConnection: () => {
        const socket = connectPinned({ net, tls }, destination, port, options.ca);
        socket.on('error', onNetworkError);
        socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
        return socket;
      },
    });
    request.on('error', onNetworkError);
    const connectTimer = setTimeout(() => fail('connect_timeout', 'no connection within the time allowed'), options.connectTimeoutMs);
    const wholeTimer = setTimeout(() => fail('timeout', 'no complete answer within the time allowed'), options.timeoutMs);
    const onAbort = () => fail('aborted', 'the request was cancelled');
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const max = options.maxBodyBytes;
      if (max === undefined) return finish(() => resolve({ status, headers: response.headers, body: undefined }));
      if (Number(response.headers['content-length']) > max) return fail('too_large', 'the declared body is over the budget');
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > max) return fail('too_large', 'the body is over the budget');
        chunks.push(chunk);
      });
      response.on('end', () => finish(() => resolve({ status, headers: response.headers, body: new Uint8Array(Buffer.concat(chunks)) })));
      response.on('error', onNetworkError);
      response.on('aborted', () => fail('network', 'the answer was cut off'));
    });
    request.end(options.body);
  });
}

/** Node's messages may name the host (a certificate mismatch does): keep only the code. */
function failedConnection(error: NodeJS.ErrnoException): string {
  return `the connection failed (${error.code ?? 'error'})`;
}

/**
 * A socket to the checked address itself: no name is looked up, so no lookup callback runs. Node
 * starts the connect of an address literal on a later tick, so the caller's 'error' handler,
 * attached as this returns, is in place before connect() can fail, even when it fails at once
 * (ENETUNREACH, EACCES, EPERM). TLS still checks the certificate against the URL's host name.
 */
function connectPinned({ net, tls }: Pick<HttpStack, 'net' | 'tls'>, { url, address }: Destination, port: number, ca: readonly string[] | undefined): Socket {
  if (url.protocol !== 'https:') return net.connect({ host: address, port });
  return tls.connect({
    host: address,
    port,
    // SNI carries names only; an address literal in the URL is the address checked.
    ...(net.isIP(url.hostname) === 0 && { servername: url.hostname }),
    checkServerIdentity: (_host, cert) => tls.checkServerIdentity(url.hostname, cert),
    ...(ca && { ca: [...ca] }),
  });
}
