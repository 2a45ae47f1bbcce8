/**
 * The remote resource loader against real HTTP servers on loopback (names answered by a DNS
 * stub, loopback allowed by the test switch): what is sent, what is refused, and the bounds.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResourceBudgetError } from '#engine/errors.js';
import { ResourceLoadError, type LoadContext } from '#engine/resources/loader.js';
import { DEFAULT_NET_SETTINGS, type NetSettings } from '../../../src/net/net-settings.js';
import { RemoteLoader, TooManyRemoteResourcesError } from '../../../src/net/remote-loader.js';
import { FIXTURES } from '../../support/fixtures.js';
import { startDnsStub, type DnsStub } from './support/dns-stub.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const PNG = readFileSync(path.join(FIXTURES, 'images/dot.png'));
const BUDGET = 1 << 20;
const context = (remainingBytes = BUDGET): LoadContext => ({ remainingBytes });

function failsWith(reason: string) {
  return (error: unknown) => {
    assert.ok(error instanceof ResourceLoadError, String(error));
    assert.equal(error.reason, reason);
    return true;
  };
}

describe('loading remote resources', () => {
  let dns: DnsStub;
  let server: TestServer;
  let base: string;
  let hugeBytesWritten = 0;
  let settings: NetSettings;
  const loader = (changes: Partial<NetSettings> = {}, enabled = true) =>
    new RemoteLoader({ settings: { ...settings, ...changes }, fetchId: 'fetch_test', enabled, budgetBytes: BUDGET });

  before(async () => {
    dns = await startDnsStub({
      'img.example.com': ['127.0.0.1'],
      'private.example.com': ['10.0.0.7'],
      'mixed.example.com': ['93.184.216.34', '192.168.1.20'],
      'nowhere.example.com': [],
    });
    server = await startTestServer({
      '/dot.png': (_request, response) => response.writeHead(200, { 'Content-Type': 'image/PNG; q=1' }).end(PNG),
      '/gone.png': (_request, response) => response.writeHead(410).end(),
      '/error.png': (_request, response) => response.writeHead(500).end('no'),
      '/moved.png': (_request, response) => response.writeHead(302, { Location: `${base}/dot.png` }).end(),
      '/declared-huge.png': (_request, response) => response.writeHead(200, { 'Content-Length': String(50 << 20) }).flushHeaders(),
      '/huge.png': (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'image/png' });
        const chunk = Buffer.alloc(64 << 10, 1);
        const pump = () => {
          while (hugeBytesWritten < 64 << 20 && !response.destroyed) {
            hugeBytesWritten += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        pump();
      },
      '/slow.png': () => undefined, // never answers
    });
    base = `http://img.example.com:${server.port}`;
    settings = { ...DEFAULT_NET_SETTINGS, dnsServers: [dns.server], allowLoopback: true, resourceTimeoutMs: 1_000, resourcesTimeoutMs: 5_000 };
  });
  after(async () => {
    await server.close();
    await dns.close();
  });

  it('should load an image and send only what identifies the fetch, never an account', async () => {
    const asked = () => dns.queries.filter((name) => name === 'img.example.com').length;
    const askedBefore = asked();
    const loaded = await loader().load(`${base}/dot.png?v=1`, context());
    // One question to DNS, then a connection to its answer: the name only resolves through the stub,
    // so any second lookup by the connection (DNS rebinding's opening) would have failed the load.
    assert.equal(asked() - askedBefore, 1);
    assert.deepEqual(Buffer.from(loaded.bytes), PNG);
    assert.equal(loaded.mediaType, 'image/png');
    const hit = server.hits.at(-1)!;
    assert.equal(hit.method, 'GET');
    assert.equal(hit.target, '/dot.png?v=1');
    const names = hit.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    assert.deepEqual(names.sort(), ['accept', 'accept-encoding', 'connection', 'host', 'user-agent', 'x-service-fetch-id']);
    assert.equal(hit.headers['x-service-fetch-id'], 'fetch_test');
    assert.equal(hit.headers.host, `img.example.com:${server.port}`);
  });

  it('should fetch a URL used several times (fragments aside) once', async () => {
    const once = loader();
    const before = server.hits.length;
    await once.load(`${base}/dot.png#one`, context());
    await once.load(`${base}/dot.png#two`, context());
    assert.equal(server.hits.length - before, 1);
    assert.equal(once.requests, 1);
  });

  it('should fail on answers other than 200, and never follow a redirect', async () => {
    await assert.rejects(loader().load(`${base}/gone.png`, context()), failsWith('not_found'));
    await assert.rejects(loader().load(`${base}/error.png`, context()), failsWith('http_error'));
    const before = server.hits.length;
    await assert.rejects(loader().load(`${base}/moved.png`, context()), failsWith('http_error'));
    assert.deepEqual(
      server.hits.slice(before).map((hit) => hit.target),
      ['/moved.png'],
    );
  });

  it('should stop reading a body at the budget left, and refuse a declared length over it unread', async () => {
    await assert.rejects(loader().load(`${base}/huge.png`, context(256 << 10)), ResourceBudgetError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(hugeBytesWritten < 16 << 20, `the server wrote ${hugeBytesWritten} bytes before the connection closed`);
    await assert.rejects(loader().load(`${base}/declared-huge.png`, context()), (error: unknown) => {
      assert.ok(error instanceof ResourceBudgetError);
      assert.equal(error.limit, BUDGET);
      return true;
    });
  });

  it('should give up on a server that does not answer within the per-resource bound', async () => {
    await assert.rejects(loader().load(`${base}/slow.png`, context()), failsWith('timeout'));
  });

  it('should fail every load once the time for all remote resources is used up, without connecting', async () => {
    const bounded = loader({ resourceTimeoutMs: 5_000, resourcesTimeoutMs: 500 });
    await assert.rejects(bounded.load(`${base}/slow.png?1`, context()), failsWith('timeout'));
    const connections = server.connections;
    await assert.rejects(bounded.load(`${base}/dot.png?late`, context()), failsWith('timeout'));
    assert.equal(server.connections, connections);
  });

  it(`should refuse a 51st distinct remote URL as too many, beyond the load failures of the first 50`, async () => {
    const counting = loader();
    for (let i = 0; i < 50; i++) await assert.rejects(counting.load(`${base}/missing-${i}.png`, context()), failsWith('not_found'));
    await counting.load(`${base}/missing-0.png`, context()).catch(() => undefined); // a repeat is not a new resource
    await assert.rejects(counting.load(`${base}/missing-50.png`, context()), (error: unknown) => {
      assert.ok(error instanceof TooManyRemoteResourcesError);
      assert.equal(error.limit, 50);
      return true;
    });
  });

  it('should refuse other schemes and relative paths, and everything on a plan without remote resources', async () => {
    const before = server.hits.length;
    await assert.rejects(loader().load('ftp://img.example.com/a.png', context()), failsWith('unsupported_scheme'));
    await assert.rejects(loader().load('images/a.png', context()), failsWith('unsupported_scheme'));
    await assert.rejects(loader({}, false).load(`${base}/dot.png`, context()), failsWith('disabled'));
    assert.equal(server.hits.length, before);
  });

  it('should refuse a name resolving to a private address without attempting any connection', async () => {
    const connect = net.Socket.prototype.connect;
    const attempts: unknown[] = [];
    // Any attempt is recorded and stopped here, so a broken policy could not reach 10.0.0.7 either.
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      attempts.push(args[0]);
      process.nextTick(() => this.destroy(new Error('blocked by the test')));
      return this;
    } as typeof connect;
    try {
      await assert.rejects(loader().load('http://private.example.com/a.png', context()), failsWith('forbidden'));
      await assert.rejects(loader().load('https://mixed.example.com/a.png', context()), failsWith('forbidden'));
      await assert.rejects(loader().load('http://10.0.0.7/a.png', context()), failsWith('forbidden'));
      await assert.rejects(loader().load('http://nowhere.example.com/a.png', context()), failsWith('not_found'));
    } finally {
      net.Socket.prototype.connect = connect;
    }
    assert.deepEqual(attempts, []);
  });
});
