/**
 * Remote resources end to end: the service runs as a child process trusting a CA made here, with
 * the test-only loopback switch on and its DNS pointed at a stub, so every request it makes lands
 * on the HTTPS server of this test. Nothing connects outside loopback.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FIXTURES } from '../../support/fixtures.js';
import { pdfFile, pdftotext } from '../../support/pdf-tools.js';
import { startChildService, type ChildService } from './support/child-service.js';
import { startDnsStub, type DnsStub } from './support/dns-stub.js';
import { makeTestCa } from './support/test-ca.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { createAccount, errorBody, render, reservations } from '../../support/service-harness.js';

const PNG = readFileSync(path.join(FIXTURES, 'images/dot.png'));
const OTHER_PNG = readFileSync(path.join(FIXTURES, 'images/gradient.png'));

/** Images drawn on the pages, as `pdfimages -list` lists them (soft masks left out). */
function imageCount(pdf: Uint8Array): number {
  const list = execFileSync('pdfimages', ['-list', pdfFile(pdf, 'net')], { encoding: 'utf8' });
  return list
    .trim()
    .split('\n')
    .slice(2)
    .filter((line) => line.trim().split(/\s+/)[2] === 'image').length;
}

describe('remote resources through the service', () => {
  let dns: DnsStub;
  let images: TestServer;
  let service: ChildService;
  let host: string;
  let hugeBytesWritten = 0;
  let changingServed = 0;

  before(async () => {
    const ca = makeTestCa(['img.example.com', 'storage.example.net']);
    images = await startTestServer(
      {
        '/dot.png': (_request, response) => response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
        // A picture replaced on its server between two requests.
        '/changing.png': (_request, response) => response.writeHead(200, { 'Content-Type': 'image/png' }).end(changingServed++ === 0 ? PNG : OTHER_PNG),
        '/moved.png': (_request, response) => response.writeHead(301, { Location: `https://${host}/dot.png?followed` }).end(),
        '/slow.png': () => undefined,
        '/huge.png': (_request, response) => {
          response.writeHead(200, { 'Content-Type': 'image/png' });
          const chunk = Buffer.alloc(64 << 10, 7);
          const pump = () => {
            while (hugeBytesWritten < 256 << 20 && !response.destroyed) {
              hugeBytesWritten += chunk.length;
              if (!response.write(chunk)) return void response.once('drain', pump);
            }
            response.end();
          };
          pump();
        },
      },
      { key: ca.key, cert: ca.cert },
    );
    dns = await startDnsStub({
      'img.example.com': ['127.0.0.1'],
      // Served by the same server, whose certificate does not name it.
      'impostor.example.org': ['127.0.0.1'],
      'private.example.com': ['10.0.0.9'],
    });
    host = `img.example.com:${images.port}`;
    service = await startChildService({
      NODE_EXTRA_CA_CERTS: ca.caFile,
      QUIRE_NET_ALLOW_LOOPBACK: '1',
      QUIRE_NET_DNS_SERVERS: dns.server,
      QUIRE_NET_RESOURCE_TIMEOUT_S: '2',
    });
  });
  after(async () => {
    await service?.close();
    await images?.close();
    await dns?.close();
  });

  it('should log the test-only loopback switch loudly at start-up', () => {
    assert.match(service.stderr(), /"event":"warning".*QUIRE_NET_ALLOW_LOOPBACK=1.*FOR TESTS ONLY/);
  });

  it('should draw a served image and name the public fetch identity the server saw', async () => {
    const account = await createAccount(service.store);
    const response = await render(service.harness, account.key, { markdown: `# Remote\n\n![A dot](https://${host}/dot.png?size=64)\n\nAfter the image.` });
    assert.equal(response.status, 200, await response.clone().text());
    const pdf = new Uint8Array(await response.arrayBuffer());
    const hit = images.hits.find((h) => h.target === '/dot.png?size=64')!;
    const fetchId = response.headers.get('x-service-fetch-id');
    assert.match(fetchId ?? '', /^fetch_[0-9a-f]{24}$/);
    assert.equal(hit.headers['x-service-fetch-id'], fetchId);
    assert.doesNotMatch(JSON.stringify(hit.headers), new RegExp(`${account.id}|${account.key}|acct_|quire_`));
    assert.equal(response.headers.get('x-service-resources-failed'), null);
    assert.equal(imageCount(pdf), 1);
    assert.match(await pdftotext(pdf), /After the image/);
    assert.deepEqual(
      reservations(service.harness, account.id).map((row) => row.state),
      ['charged'],
    );
  });

  it('should refuse a replay whose remote resources changed since the first render, charging nothing more', async () => {
    const account = await createAccount(service.store);
    const body = { markdown: `![Changing](https://${host}/changing.png)` };
    const first = await render(service.harness, account.key, body, { 'Idempotency-Key': 'changing-1' });
    assert.equal(first.status, 200, await first.clone().text());
    const replay = await render(service.harness, account.key, body, { 'Idempotency-Key': 'changing-1' });
    assert.equal(replay.status, 422);
    assert.equal((await errorBody(replay)).code, 'idempotency_mismatch');
    assert.equal(changingServed, 2, 'the replay loaded the resource again to compare it');
    assert.deepEqual(
      reservations(service.harness, account.id).map((row) => row.state),
      ['charged'],
    );
  });

  it('should send no fetch identity when nothing remote was requested', async () => {
    const account = await createAccount(service.store);
    const response = await render(service.harness, account.key, { markdown: '# Local only' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-service-fetch-id'), null);
  });

  it('should refuse a redirect in strict mode by position, never following it, and return the document', async () => {
    const account = await createAccount(service.store);
    const response = await render(service.harness, account.key, { markdown: `![ok](https://${host}/dot.png)\n\n![moved](https://${host}/moved.png)` });
    assert.equal(response.status, 422);
    const error = await errorBody(response);
    assert.deepEqual([error.code, error.reason, error.resource_id], ['resource_fetch_failed', 'http_error', '2']);
    assert.doesNotMatch(JSON.stringify(error), /example|moved|https/);
    assert.equal(images.hits.filter((h) => h.target === '/dot.png?followed').length, 0);
    assert.deepEqual(reservations(service.harness, account.id), [{ state: 'returned', error_code: 'resource_fetch_failed', pages: null }]);
  });

  it('should give up on a slow server at the per-resource bound', async () => {
    const account = await createAccount(service.store);
    const response = await render(service.harness, account.key, { markdown: `![slow](https://${host}/slow.png)` });
    assert.equal(response.status, 422);
    const error = await errorBody(response);
    assert.deepEqual([error.reason, error.resource_id], ['timeout', '1']);
  });

  it('should cut a huge body at the resource budget: 413 and the document returned', async () => {
    const account = await createAccount(service.store, { overrides: { resources_mb: 0.25 } });
    const response = await render(service.harness, account.key, { markdown: `![huge](https://${host}/huge.png)`, resources: 'lenient' });
    assert.equal(response.status, 413);
    const error = await errorBody(response);
    assert.deepEqual([error.code, error.reason, error.limit], ['payload_too_large', 'resource_limit', { name: 'resources_mb', value: 0.25, plan: 'starter' }]);
    assert.deepEqual(reservations(service.harness, account.id), [{ state: 'returned', error_code: 'payload_too_large', pages: null }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(hugeBytesWritten < 32 << 20, `the server got to write ${hugeBytesWritten} bytes`);
  });

  it('should verify the certificate against the host name even though the address is pinned', async () => {
    const account = await createAccount(service.store);
    const response = await render(service.harness, account.key, { markdown: `![x](https://impostor.example.org:${images.port}/dot.png)` });
    assert.equal(response.status, 422);
    assert.equal((await errorBody(response)).reason, 'network_error');
  });

  it('should draw placeholders in lenient mode and report failed over total, by position', async () => {
    const account = await createAccount(service.store);
    const markdown = [
      `![fine](https://${host}/dot.png?lenient)`,
      `![missing](https://${host}/missing.png)`,
      `![private](https://private.example.com/a.png)`,
      `![redirect](https://${host}/moved.png)`,
      `![fine again](https://${host}/dot.png?lenient)`,
      '![v6](https://[::1]/a.png)',
      '![not http](ftp://example.com/a.png)',
    ].join('\n\n');
    const response = await render(service.harness, account.key, { markdown, resources: 'lenient' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-service-resources-failed'), '5/7');
    assert.equal(response.headers.get('x-service-resources-failed-ids'), '2,3,4,6,7');
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(imageCount(pdf), 2);
    assert.equal(images.hits.filter((h) => h.target === '/dot.png?lenient').length, 1, 'fetched once, drawn twice');
  });

  it('should refuse more than 50 linked remote images before reserving anything', async () => {
    const account = await createAccount(service.store);
    const markdown = Array.from({ length: 51 }, (_, i) => `![${i}](https://${host}/dot.png?n=${i})`).join('\n');
    const before = images.hits.length;
    const response = await render(service.harness, account.key, { markdown });
    assert.equal(response.status, 422);
    const error = await errorBody(response);
    assert.deepEqual([error.code, error.limit], ['too_many_resources', { name: 'remote_resources', value: 50, plan: 'starter' }]);
    assert.deepEqual(reservations(service.harness, account.id), []);
    assert.equal(images.hits.length, before);
  });

  it('should never log a resource URL', () => {
    assert.doesNotMatch(service.stderr(), /img\.example\.com|private\.example\.com|dot\.png/);
  });
});
