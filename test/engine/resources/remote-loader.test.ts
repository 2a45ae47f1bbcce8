/**
 * The library's remote loader, taken from the engine's public entry as a library user takes it,
 * against an HTTP server on loopback started here: private addresses reached only when the
 * loader is told to allow them, refused by default before any connection is attempted, and its
 * bounds. Nothing here connects outside loopback (an address refused by the policy is never
 * connected to, and the test stops any connection it did not mean).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, copyFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  combineLoaders,
  folderLoader,
  InvalidOptionError,
  remoteLoader,
  render,
  ResourceBudgetError,
  ResourceError,
  ResourceLoadError,
  TooManyRemoteResourcesError,
  type LoadContext,
} from '#engine/index.js';
import { startTestServer, type TestServer } from '../../src/net/support/test-server.js';
import { rasterImageCount } from '../../support/pdf-content.js';
import { FIXTURES } from '../../support/fixtures.js';

const PNG = readFileSync(path.join(FIXTURES, 'images/dot.png'));
const context = (remainingBytes = 1 << 20): LoadContext => ({ remainingBytes });

/** Runs `body` with every socket connect recorded and stopped: a refused address must never be dialled. */
async function withConnectsRecorded(body: () => Promise<void>): Promise<unknown[]> {
  const connect = net.Socket.prototype.connect;
  const attempts: unknown[] = [];
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    attempts.push(args[0]);
    process.nextTick(() => this.destroy(new Error('blocked by the test')));
    return this;
  } as typeof connect;
  try {
    await body();
  } finally {
    net.Socket.prototype.connect = connect;
  }
  return attempts;
}

describe('the remote loader of the library', () => {
  let server: TestServer;
  let base: string;

  before(async () => {
    server = await startTestServer({
      '/dot.png': (_request, response) => response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
      '/big.png': (_request, response) => response.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.alloc(64 << 10, 1)),
      '/slow.png': () => undefined, // never answers
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  after(() => server.close());

  it('should load images from a loopback server when private addresses are allowed, beside local ones', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'quire-remote-'));
    copyFileSync(path.join(FIXTURES, 'images/gradient.png'), path.join(folder, 'local.png'));
    const remote = remoteLoader({ allowPrivate: true, userAgent: 'Example docs builder', headers: { 'X-Request-Id': 'r-1' } });
    const before = server.hits.length;
    const result = await render(`# Images\n\n![remote](${base}/dot.png?v=1)\n\n![local](local.png)\n`, {
      loader: combineLoaders(remote, folderLoader(folder)),
    });
    assert.equal(result.resources.total, 2);
    assert.deepEqual(result.resources.failed, []);
    // The remote dot has an alpha channel, drawn as an image and its soft mask; the local gradient has none.
    assert.equal(await rasterImageCount(result.pdf), 3);
    assert.equal(remote.requests, 1);
    const hits = server.hits.slice(before);
    assert.deepEqual(
      hits.map((hit) => hit.target),
      ['/dot.png?v=1'],
    );
    assert.equal(hits[0]!.headers['user-agent'], 'Example docs builder');
    assert.equal(hits[0]!.headers['x-request-id'], 'r-1');
  });

  it('should refuse a private address by default before any connection is attempted', async () => {
    const connections = server.connections;
    const hits = server.hits.length;
    const attempts = await withConnectsRecorded(async () => {
      await assert.rejects(remoteLoader().load(`${base}/dot.png`, context()), (error: unknown) => {
        assert.ok(error instanceof ResourceLoadError, String(error));
        assert.equal(error.reason, 'forbidden');
        return true;
      });
      // Through a render: strict mode names the resource and the reason.
      await assert.rejects(render(`![remote](${base}/dot.png)\n`, { loader: remoteLoader() }), (error: unknown) => {
        assert.ok(error instanceof ResourceError, String(error));
        assert.equal(error.reason, 'forbidden');
        return true;
      });
      // Other private forms, and link-local even when private addresses are allowed.
      for (const url of ['http://10.0.0.7/a.png', 'http://192.168.1.1/a.png', 'http://0x7f000001/a.png', 'http://localhost/a.png']) {
        await assert.rejects(remoteLoader().load(url, context()), ResourceLoadError, url);
      }
      await assert.rejects(remoteLoader({ allowPrivate: true }).load('http://169.254.169.254/latest/meta-data/', context()), ResourceLoadError);
    });
    assert.deepEqual(attempts, []);
    assert.equal(server.connections, connections);
    assert.equal(server.hits.length, hits);
  });

  it('should bound how many resources, how many bytes and how long', async () => {
    const counted = remoteLoader({ allowPrivate: true, maxResources: 2 });
    await counted.load(`${base}/dot.png?1`, context());
    await counted.load(`${base}/dot.png?1#again`, context()); // the same resource
    await counted.load(`${base}/dot.png?2`, context());
    await assert.rejects(counted.load(`${base}/dot.png?3`, context()), (error: unknown) => error instanceof TooManyRemoteResourcesError && error.limit === 2);

    const small = remoteLoader({ allowPrivate: true, maxBytes: 100 << 10 });
    await small.load(`${base}/big.png?1`, context());
    await assert.rejects(small.load(`${base}/big.png?2`, context()), (error: unknown) => error instanceof ResourceBudgetError && error.limit === 100 << 10);

    await assert.rejects(remoteLoader({ allowPrivate: true, timeoutMs: 300 }).load(`${base}/slow.png`, context()), (error: unknown) => {
      assert.ok(error instanceof ResourceLoadError);
      assert.equal(error.reason, 'timeout');
      return true;
    });
  });

  it('should leave other schemes to the next loader, and refuse bad options by name', async () => {
    await assert.rejects(
      remoteLoader().load('images/a.png', context()),
      (error: unknown) => error instanceof ResourceLoadError && error.reason === 'unsupported_scheme',
    );
    await assert.rejects(
      combineLoaders(remoteLoader()).load('images/a.png', context()),
      (error: unknown) => error instanceof ResourceLoadError && error.reason === 'unsupported_scheme',
    );
    assert.throws(
      () => remoteLoader({ maxResources: 0 }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'maxResources',
    );
    assert.throws(
      () => remoteLoader({ dnsServers: ['dns.example.com'] }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'dnsServers',
    );
    assert.throws(
      () => remoteLoader({ dnsServers: ['127.0.0.1:0'] }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'dnsServers',
    );
    assert.throws(
      () => remoteLoader({ headers: { 'X-Id': 'a\r\nHost: elsewhere' } }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'headers',
    );
  });
});
