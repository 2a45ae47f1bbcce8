/**
 * One HTTP(S) request to a checked destination: the socket connects to exactly the checked
 * address (the name is never looked up again), TLS still verifies the certificate against the
 * host name, redirects come back as a status and are never followed, and the connection and
 * the whole exchange each have a bound. No connection is reused.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
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
  constructor(readonly failure: ExchangeFailure, message: string) {
    super(message);
  }
}

export function exchange(destination: Destination, options: ExchangeOptions): Promise<ExchangeResult> {
  const { url, address } = destination;
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request({
      protocol: url.protocol,
      host: url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: options.method,
      headers: options.headers,
      agent: false,
      family: 4,
      // Node skips `lookup` for an IP literal host, which is then the checked address itself.
      lookup: pinnedLookup(address),
    });
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
    const connectTimer = setTimeout(() => fail('connect_timeout', 'no connection within the time allowed'), options.connectTimeoutMs);
    const wholeTimer = setTimeout(() => fail('timeout', 'no complete answer within the time allowed'), options.timeoutMs);
    const onAbort = () => fail('aborted', 'the request was cancelled');
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    request.on('socket', (socket) => socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer)));
    request.on('error', (error: NodeJS.ErrnoException) => fail('network', failedConnection(error)));
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
      response.on('error', (error: NodeJS.ErrnoException) => fail('network', failedConnection(error)));
      response.on('aborted', () => fail('network', 'the answer was cut off'));
    });
    request.end(options.body);
  });
}

/** Node's messages may name the host (a certificate mismatch does): keep only the code. */
function failedConnection(error: NodeJS.ErrnoException): string {
  return `the connection failed (${error.code ?? 'error'})`;
}

/** A `lookup` that answers every name with the one checked address, in both of Node's calling forms. */
function pinnedLookup(address: string): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  }) as unknown as LookupFunction;
}
